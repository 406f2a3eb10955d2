# description: one thread reading a large preallocated file sequentially with O_DIRECT 1 MiB reads
# fsgauge built-in personality, MIT licence. Modelled on the filebench personality of the same name.
# A single reader streams through a 5 GiB file with O_DIRECT, wrapping to the start at the end.
#
# The file is created once and kept between runs (reuse).
# O_DIRECT needs $iosize to be a multiple of the device's logical block size.

set $dir=/tmp
set $filesize=5g
set $nthreads=1
set $iosize=1m

define file name=largefile1,path=$dir,size=$filesize,prealloc,reuse  # largefile

define process name=seqread,instances=1
{
  thread name=seqread,memsize=10m,instances=$nthreads
  {
    flowop read name=seqread,filename=largefile1,iosize=$iosize,directio  # seq-read
  }
}

echo "singlestreamreaddirect personality successfully loaded"
usage "singlestreamreaddirect variables (fsgauge: -s name=value):"
usage "  set \$dir=<path>            directory holding the file (fsgauge sets it from -d)"
usage "  set \$filesize=<size>       size of the file (default $filesize)"
usage "  set \$nthreads=<n>          threads sharing the one stream (default $nthreads)"
usage "  set \$iosize=<size>         size of each read (default $iosize)"
