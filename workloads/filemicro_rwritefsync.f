# description: 16384 random 8 KiB buffered overwrites of a 1 GiB file followed by a single fsync
# fsgauge built-in personality, MIT licence. Modelled on the filebench personality of the same name.
# Measures how long one fsync takes to flush 128 MiB of scattered dirty data.
#
# One loop pass is $iters random writes then an fsync of the same file (both on
# fd 1). finishoncount without a target counts every operation of the run; it
# is checked once per pass, so the default $count of 1 ends the run after the
# first pass.

set $dir=/tmp
set $cached=false
set $count=1
set $filesize=1g
set $iosize=8k
set $iters=16384
set $nthreads=1

define file name=bigfile,path=$dir,size=$filesize,prealloc,cached=$cached

define process name=filewriter,instances=1
{
  thread name=filewriterthread,memsize=10m,instances=$nthreads  # writer
  {
    flowop write name=write-file,filename=bigfile,random,iosize=$iosize,iters=$iters,fd=1  # rand-write
    flowop fsync name=sync-file,fd=1  # sync
    flowop finishoncount name=finish,value=$count  # done
  }
}

echo "filemicro_rwritefsync personality successfully loaded"
usage "filemicro_rwritefsync variables (fsgauge: -s name=value):"
usage "  set \$dir=<path>            directory holding the file (fsgauge sets it from -d)"
usage "  set \$cached=<bool>         leave the new file in the page cache (default $cached)"
usage "  set \$count=<n>             operations before the run ends (default $count, i.e. one pass)"
usage "  set \$filesize=<size>       size of the file (default $filesize)"
usage "  set \$iosize=<size>         size of each write (default $iosize)"
usage "  set \$iters=<n>             writes before each fsync (default $iters)"
usage "  set \$nthreads=<n>          writing threads (default $nthreads)"
