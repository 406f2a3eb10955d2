# description: random reads of fixed-size blocks spread over one large preallocated file
# fsgauge built-in personality, MIT licence. Modelled on the filebench personality of the same name.
# $nthreads threads issue 8 KiB random reads at iosize-aligned offsets of a 5 GiB file.
#
# The file is created once with all its blocks and kept between runs (reuse).
# $workingset limits the offsets to the start of the file (0 means the whole
# file); $directio=true bypasses the page cache. Compare the file size with RAM:
# a file that fits in memory measures the page cache, not the device.

set $dir=/tmp
set $filesize=5g
set $iosize=8k
set $nthreads=1
set $workingset=0
set $directio=false

define file name=largefile1,path=$dir,size=$filesize,prealloc,reuse,paralloc  # largefile

define process name=rand-read,instances=1  # randread
{
  thread name=rand-thread,memsize=5m,instances=$nthreads  # randread
  {
    flowop read name=rand-read1,filename=largefile1,iosize=$iosize,random,workingset=$workingset,directio=$directio  # rand-read
  }
}

echo "randomread personality successfully loaded"
usage "randomread variables (fsgauge: -s name=value):"
usage "  set \$dir=<path>            directory holding the file (fsgauge sets it from -d)"
usage "  set \$filesize=<size>       size of the file (default $filesize)"
usage "  set \$iosize=<size>         size of each read (default $iosize)"
usage "  set \$nthreads=<n>          concurrent threads (default $nthreads)"
usage "  set \$workingset=<size>     only touch this much of the file, 0 = all (default $workingset)"
usage "  set \$directio=<bool>       use O_DIRECT (default $directio)"
