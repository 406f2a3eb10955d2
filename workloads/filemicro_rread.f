# description: random 2 KiB reads of a 1 GiB file until 128 MiB have been read
# fsgauge built-in personality, MIT licence. Modelled on the filebench personality of the same name.
# A single thread reads $iosize blocks at random offsets of a preallocated file and stops at $bytes.
#
# With $cached=false the file's pages are dropped from the page cache after it
# is created, so the reads start cold. finishonbytes without a target counts the
# bytes of every operation.

set $dir=/tmp
set $bytes=128m
set $cached=false
set $filesize=1g
set $iosize=2k
set $iters=1
set $nthreads=1

define file name=bigfile1,path=$dir,size=$filesize,prealloc,reuse,cached=$cached  # bigfile

define process name=filereader,instances=1
{
  thread name=filereaderthread,memsize=10m,instances=$nthreads  # reader
  {
    flowop read name=write-file,filename=bigfile1,random,iosize=$iosize,iters=$iters  # rand-read
    flowop finishonbytes name=finish,value=$bytes  # done
  }
}

echo "filemicro_rread personality successfully loaded"
usage "filemicro_rread variables (fsgauge: -s name=value):"
usage "  set \$dir=<path>            directory holding the file (fsgauge sets it from -d)"
usage "  set \$bytes=<size>          bytes read before the run ends (default $bytes)"
usage "  set \$cached=<bool>         leave the new file in the page cache (default $cached)"
usage "  set \$filesize=<size>       size of the file (default $filesize)"
usage "  set \$iosize=<size>         size of each read (default $iosize)"
usage "  set \$iters=<n>             reads per loop pass (default $iters)"
usage "  set \$nthreads=<n>          reading threads (default $nthreads)"
