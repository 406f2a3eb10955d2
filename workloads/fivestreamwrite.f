# description: five threads each overwriting its own 1 GiB file sequentially in 1 MiB writes
# fsgauge built-in personality, MIT licence. Modelled on the filebench personality of the same name.
# Five independent sequential write streams, one per 1 GiB file, continuing past the end if the run is long.
#
# The five files are created once and kept between runs (reuse). $nthreads
# sets how many threads share each stream.

set $dir=/tmp
set $filesize=1g
set $nthreads=1
set $iosize=1m

define file name=stream1,path=$dir,size=$filesize,prealloc,reuse
define file name=stream2,path=$dir,size=$filesize,prealloc,reuse
define file name=stream3,path=$dir,size=$filesize,prealloc,reuse
define file name=stream4,path=$dir,size=$filesize,prealloc,reuse
define file name=stream5,path=$dir,size=$filesize,prealloc,reuse

define process name=seqwrite,instances=1
{
  thread name=seqwrite1,memsize=10m,instances=$nthreads
  {
    flowop write name=seq-write1,filename=stream1,iosize=$iosize
  }
  thread name=seqwrite2,memsize=10m,instances=$nthreads
  {
    flowop write name=seq-write2,filename=stream2,iosize=$iosize
  }
  thread name=seqwrite3,memsize=10m,instances=$nthreads
  {
    flowop write name=seq-write3,filename=stream3,iosize=$iosize
  }
  thread name=seqwrite4,memsize=10m,instances=$nthreads
  {
    flowop write name=seq-write4,filename=stream4,iosize=$iosize
  }
  thread name=seqwrite5,memsize=10m,instances=$nthreads
  {
    flowop write name=seq-write5,filename=stream5,iosize=$iosize
  }
}

echo "fivestreamwrite personality successfully loaded"
usage "fivestreamwrite variables (fsgauge: -s name=value):"
usage "  set \$dir=<path>            directory holding the files (fsgauge sets it from -d)"
usage "  set \$filesize=<size>       size of each of the five files (default $filesize)"
usage "  set \$nthreads=<n>          threads per stream (default $nthreads)"
usage "  set \$iosize=<size>         size of each write (default $iosize)"
