# description: concurrent random reads and random overwrites of one large preallocated file
# fsgauge built-in personality, MIT licence. Modelled on the filebench personality of the same name.
# One group of threads reads and another writes 8 KiB blocks at random offsets of the same 5 GiB file.
#
# Readers and writers are separate threads ($nthreads of each) in one process,
# so reads compete with writes for the same file. The file is created once and
# kept between runs (reuse). $workingset limits offsets to the start of the
# file (0 means the whole file); $directio=true bypasses the page cache.

set $dir=/tmp
set $filesize=5g
set $iosize=8k
set $nthreads=1
set $workingset=0
set $directio=false

define file name=largefile1,path=$dir,size=$filesize,prealloc,reuse,paralloc  # largefile

define process name=rand-rw,instances=1  # randrw
{
  thread name=rand-r-thread,memsize=5m,instances=$nthreads  # randreader
  {
    flowop read name=rand-read1,filename=largefile1,iosize=$iosize,random,workingset=$workingset,directio=$directio  # rand-read
  }
  thread name=rand-w-thread,memsize=5m,instances=$nthreads  # randwriter
  {
    flowop write name=rand-write1,filename=largefile1,iosize=$iosize,random,workingset=$workingset,directio=$directio  # rand-write
  }
}

echo "randomrw personality successfully loaded"
usage "randomrw variables (fsgauge: -s name=value):"
usage "  set \$dir=<path>            directory holding the file (fsgauge sets it from -d)"
usage "  set \$filesize=<size>       size of the file (default $filesize)"
usage "  set \$iosize=<size>         size of each read and write (default $iosize)"
usage "  set \$nthreads=<n>          reader threads, and as many writer threads (default $nthreads)"
usage "  set \$workingset=<size>     only touch this much of the file, 0 = all (default $workingset)"
usage "  set \$directio=<bool>       use O_DIRECT (default $directio)"
