# description: five threads each reading its own 1 GiB file sequentially in 1 MiB reads
# fsgauge built-in personality, MIT licence. Modelled on the filebench personality of the same name.
# Five independent sequential read streams, one per 1 GiB file, wrapping to the start at the end.
#
# The five files are created once and kept between runs (reuse). $nthreads
# sets how many threads share each stream.

set $dir=/tmp
set $filesize=1g
set $nthreads=1
set $iosize=1m

define file name=largefile1,path=$dir,size=$filesize,prealloc,reuse  # stream1
define file name=largefile2,path=$dir,size=$filesize,prealloc,reuse  # stream2
define file name=largefile3,path=$dir,size=$filesize,prealloc,reuse  # stream3
define file name=largefile4,path=$dir,size=$filesize,prealloc,reuse  # stream4
define file name=largefile5,path=$dir,size=$filesize,prealloc,reuse  # stream5

define process name=seqread,instances=1
{
  thread name=seqread1,memsize=10m,instances=$nthreads
  {
    flowop read name=seqread1,filename=largefile1,iosize=$iosize  # seq-read1
  }
  thread name=seqread2,memsize=10m,instances=$nthreads
  {
    flowop read name=seqread2,filename=largefile2,iosize=$iosize  # seq-read2
  }
  thread name=seqread3,memsize=10m,instances=$nthreads
  {
    flowop read name=seqread3,filename=largefile3,iosize=$iosize  # seq-read3
  }
  thread name=seqread4,memsize=10m,instances=$nthreads
  {
    flowop read name=seqread4,filename=largefile4,iosize=$iosize  # seq-read4
  }
  thread name=seqread5,memsize=10m,instances=$nthreads
  {
    flowop read name=seqread5,filename=largefile5,iosize=$iosize  # seq-read5
  }
}

echo "fivestreamread personality successfully loaded"
usage "fivestreamread variables (fsgauge: -s name=value):"
usage "  set \$dir=<path>            directory holding the files (fsgauge sets it from -d)"
usage "  set \$filesize=<size>       size of each of the five files (default $filesize)"
usage "  set \$nthreads=<n>          threads per stream (default $nthreads)"
usage "  set \$iosize=<size>         size of each read (default $iosize)"
