# description: 8 KiB appends to a growing file with an fsync every 1250, until 131072 operations
# fsgauge built-in personality, MIT licence. Modelled on the filebench personality of the same name.
# A single thread appends $iters blocks, fsyncs, and repeats; the run stops after $count operations.
#
# The appends and the fsync share fd 1. finishoncount without a target counts
# every operation of the run (appends and fsyncs) and is checked once per pass.

set $dir=/tmp
set $count=128k
set $iosize=8k
set $iters=1250
set $nthreads=1

define file name=bigfile,path=$dir,size=0,prealloc

define process name=filewriter,instances=1
{
  thread name=filewriterthread,memsize=10m,instances=$nthreads  # appender
  {
    flowop appendfile name=append-file,filename=bigfile,iosize=$iosize,iters=$iters,fd=1  # append
    flowop fsync name=sync-file,fd=1  # sync
    flowop finishoncount name=finish,value=$count  # done
  }
}

echo "filemicro_writefsync personality successfully loaded"
usage "filemicro_writefsync variables (fsgauge: -s name=value):"
usage "  set \$dir=<path>            directory holding the file (fsgauge sets it from -d)"
usage "  set \$count=<n>             operations before the run ends (default $count)"
usage "  set \$iosize=<size>         size of each append (default $iosize)"
usage "  set \$iters=<n>             appends between fsyncs (default $iters)"
usage "  set \$nthreads=<n>          appending threads (default $nthreads)"
