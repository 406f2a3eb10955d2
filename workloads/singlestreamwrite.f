# description: one thread writing a new file sequentially in 1 MiB writes until the run ends
# fsgauge built-in personality, MIT licence. Modelled on the filebench personality of the same name.
# A single writer extends an initially empty file for as long as the run lasts.
#
# The file starts empty and grows by $iosize per write; the run length decides its final size.

set $dir=/tmp
set $nthreads=1
set $iosize=1m

define file name=largefile1,path=$dir,size=0,prealloc  # largefile

define process name=seqwrite,instances=1
{
  thread name=seqwrite,memsize=10m,instances=$nthreads
  {
    flowop write name=seqwrite,filename=largefile1,iosize=$iosize  # seq-write
  }
}

echo "singlestreamwrite personality successfully loaded"
usage "singlestreamwrite variables (fsgauge: -s name=value):"
usage "  set \$dir=<path>            directory holding the file (fsgauge sets it from -d)"
usage "  set \$nthreads=<n>          threads sharing the one stream (default $nthreads)"
usage "  set \$iosize=<size>         size of each write (default $iosize)"
