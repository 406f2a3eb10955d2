# description: grow a new file with 131072 sequential appends of random size up to 8 KiB, then stop
# fsgauge built-in personality, MIT licence. Modelled on the filebench personality of the same name.
# A single thread opens an empty file, appends $count random-size chunks, closes it and stops.
#
# Each append is between 1 byte and $iosize, so about 512 MiB is written by
# default. The finishoncount (value 1, no target) ends the run after the first
# pass. Set $sync=true to open with O_DSYNC.

set $dir=/tmp
set $cached=false
set $count=128k
set $iosize=8k
set $nthreads=1
set $sync=false

define file name=bigfile,path=$dir,size=0,prealloc,cached=$cached

define process name=filewriter,instances=1
{
  thread name=filewriterthread,memsize=10m,instances=$nthreads  # writer
  {
    flowop openfile name=open-file,filename=bigfile,fd=1  # open
    flowop appendfilerand name=appendrand-file,dsync=$sync,iosize=$iosize,fd=1,iters=$count  # rand-append
    flowop closefile name=close,fd=1
    flowop finishoncount name=finish,value=1  # done
  }
}

echo "filemicro_seqwriterand personality successfully loaded"
usage "filemicro_seqwriterand variables (fsgauge: -s name=value):"
usage "  set \$dir=<path>            directory holding the file (fsgauge sets it from -d)"
usage "  set \$cached=<bool>         leave the new file in the page cache (default $cached)"
usage "  set \$count=<n>             appends in the single pass (default $count)"
usage "  set \$iosize=<size>         upper bound of each random append (default $iosize)"
usage "  set \$nthreads=<n>          writing threads (default $nthreads)"
usage "  set \$sync=<bool>           open with O_DSYNC (default $sync)"
