# description: five threads each reading its own 1 GiB file sequentially in 1 MiB O_DIRECT reads
# fsgauge built-in personality, MIT licence. Modelled on the filebench personality of the same name.
# Five independent sequential read streams, one per 1 GiB file, wrapping to the start at the end.
#
# The five files are created once and kept between runs (reuse). $nthreads
# sets how many threads share each stream.
# O_DIRECT needs $iosize to be a multiple of the device's logical block size.

set $dir=/tmp
set $filesize=1g
set $nthreads=1
set $iosize=1m

define file name=stream1,path=$dir,size=$filesize,prealloc,reuse
define file name=stream2,path=$dir,size=$filesize,prealloc,reuse
define file name=stream3,path=$dir,size=$filesize,prealloc,reuse
define file name=stream4,path=$dir,size=$filesize,prealloc,reuse
define file name=stream5,path=$dir,size=$filesize,prealloc,reuse

define process name=seqread,instances=1
{
  thread name=seqread1,memsize=10m,instances=$nthreads
  {
    flowop read name=seq-read1,filename=stream1,iosize=$iosize,directio
  }
  thread name=seqread2,memsize=10m,instances=$nthreads
  {
    flowop read name=seq-read2,filename=stream2,iosize=$iosize,directio
  }
  thread name=seqread3,memsize=10m,instances=$nthreads
  {
    flowop read name=seq-read3,filename=stream3,iosize=$iosize,directio
  }
  thread name=seqread4,memsize=10m,instances=$nthreads
  {
    flowop read name=seq-read4,filename=stream4,iosize=$iosize,directio
  }
  thread name=seqread5,memsize=10m,instances=$nthreads
  {
    flowop read name=seq-read5,filename=stream5,iosize=$iosize,directio
  }
}

echo "fivestreamreaddirect personality successfully loaded"
usage "fivestreamreaddirect variables (fsgauge: -s name=value):"
usage "  set \$dir=<path>            directory holding the files (fsgauge sets it from -d)"
usage "  set \$filesize=<size>       size of each of the five files (default $filesize)"
usage "  set \$nthreads=<n>          threads per stream (default $nthreads)"
usage "  set \$iosize=<size>         size of each read (default $iosize)"
