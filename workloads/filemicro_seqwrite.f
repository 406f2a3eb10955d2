# description: write a new 1 GiB file with 1024 sequential 1 MiB appends, then stop
# fsgauge built-in personality, MIT licence. Modelled on the filebench personality of the same name.
# A single thread appends $count blocks of $iosize to an empty file in one loop pass.
#
# The append flowop repeats $count times within one pass; the following
# finishoncount (value 1, no target, so any completed operation counts) ends the
# run after that first pass. Set $sync=true to open with O_DSYNC.

set $dir=/tmp
set $cached=false
set $count=1024
set $iosize=1m
set $nthreads=1
set $sync=false

define file name=bigfile,path=$dir,size=0,prealloc,cached=$cached

define process name=filewriter,instances=1
{
  thread name=filewriterthread,memsize=10m,instances=$nthreads  # writer
  {
    flowop appendfile name=write-file,dsync=$sync,filename=bigfile,iosize=$iosize,iters=$count  # seq-append
    flowop finishoncount name=finish,value=1  # done
  }
}

echo "filemicro_seqwrite personality successfully loaded"
usage "filemicro_seqwrite variables (fsgauge: -s name=value):"
usage "  set \$dir=<path>            directory holding the file (fsgauge sets it from -d)"
usage "  set \$cached=<bool>         leave the new file in the page cache (default $cached)"
usage "  set \$count=<n>             appends in the single pass (default $count)"
usage "  set \$iosize=<size>         size of each append (default $iosize)"
usage "  set \$nthreads=<n>          writing threads (default $nthreads)"
usage "  set \$sync=<bool>           open with O_DSYNC (default $sync)"
