# description: five threads each overwriting its own 1 GiB file sequentially in 1 MiB O_DIRECT writes
# fsgauge built-in personality, MIT licence. Modelled on the filebench personality of the same name.
# Five independent sequential write streams, one per 1 GiB file, continuing past the end if the run is long.
#
# The five files are created once and kept between runs (reuse). $nthreads
# sets how many threads share each stream.
# O_DIRECT needs $iosize to be a multiple of the device's logical block size.

set $dir=/tmp
set $filesize=1g
set $nthreads=1
set $iosize=1m

define file name=largefile1,path=$dir,size=$filesize,prealloc,reuse  # stream1
define file name=largefile2,path=$dir,size=$filesize,prealloc,reuse  # stream2
define file name=largefile3,path=$dir,size=$filesize,prealloc,reuse  # stream3
define file name=largefile4,path=$dir,size=$filesize,prealloc,reuse  # stream4
define file name=largefile5,path=$dir,size=$filesize,prealloc,reuse  # stream5

define process name=seqwrite,instances=1
{
  thread name=seqwrite1,memsize=10m,instances=$nthreads
  {
    flowop write name=seqwrite1,filename=largefile1,iosize=$iosize,directio  # seq-write1
  }
  thread name=seqwrite2,memsize=10m,instances=$nthreads
  {
    flowop write name=seqwrite2,filename=largefile2,iosize=$iosize,directio  # seq-write2
  }
  thread name=seqwrite3,memsize=10m,instances=$nthreads
  {
    flowop write name=seqwrite3,filename=largefile3,iosize=$iosize,directio  # seq-write3
  }
  thread name=seqwrite4,memsize=10m,instances=$nthreads
  {
    flowop write name=seqwrite4,filename=largefile4,iosize=$iosize,directio  # seq-write4
  }
  thread name=seqwrite5,memsize=10m,instances=$nthreads
  {
    flowop write name=seqwrite5,filename=largefile5,iosize=$iosize,directio  # seq-write5
  }
}

echo "fivestreamwritedirect personality successfully loaded"
usage "fivestreamwritedirect variables (fsgauge: -s name=value):"
usage "  set \$dir=<path>            directory holding the files (fsgauge sets it from -d)"
usage "  set \$filesize=<size>       size of each of the five files (default $filesize)"
usage "  set \$nthreads=<n>          threads per stream (default $nthreads)"
usage "  set \$iosize=<size>         size of each write (default $iosize)"
