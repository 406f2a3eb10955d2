# description: random 2 KiB overwrites of a 1 GiB file until 128 MiB have been written
# fsgauge built-in personality, MIT licence. Modelled on the filebench personality of the same name.
# A single thread writes $iosize blocks at random offsets of a preallocated file and stops at $bytes.
#
# Writes are buffered unless $sync=true (O_DSYNC). With $cached=false the file's
# pages are dropped from the page cache after it is created. finishonbytes
# without a target counts the bytes of every operation.

set $dir=/tmp
set $bytes=128m
set $cached=false
set $filesize=1g
set $iosize=2k
set $iters=1
set $nthreads=1
set $sync=false

define file name=bigfile1,path=$dir,size=$filesize,prealloc,reuse,cached=$cached  # bigfile

define process name=filewriter,instances=1
{
  thread name=filewriterthread,memsize=10m,instances=$nthreads  # writer
  {
    flowop write name=write-file,filename=bigfile1,random,dsync=$sync,iosize=$iosize,iters=$iters  # rand-write
    flowop finishonbytes name=finish,value=$bytes  # done
  }
}

echo "filemicro_rwrite personality successfully loaded"
usage "filemicro_rwrite variables (fsgauge: -s name=value):"
usage "  set \$dir=<path>            directory holding the file (fsgauge sets it from -d)"
usage "  set \$bytes=<size>          bytes written before the run ends (default $bytes)"
usage "  set \$cached=<bool>         leave the new file in the page cache (default $cached)"
usage "  set \$filesize=<size>       size of the file (default $filesize)"
usage "  set \$iosize=<size>         size of each write (default $iosize)"
usage "  set \$iters=<n>             writes per loop pass (default $iters)"
usage "  set \$nthreads=<n>          writing threads (default $nthreads)"
usage "  set \$sync=<bool>           open with O_DSYNC (default $sync)"
