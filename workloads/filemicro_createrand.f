# description: grow one empty file with random-size appends and an fsync every 10, until 1 GiB is written
# fsgauge built-in personality, MIT licence. Modelled on the filebench personality of the same name.
# A single thread appends between 1 byte and $iosize at a time, fsyncs every $iters appends, stops at $bytes.
#
# The run ends once $bytes have been transferred (finishonbytes without a target
# counts the bytes of every operation). The appends and the fsync share fd 1.
# Set $sync=true to open with O_DSYNC.

set $dir=/tmp
set $bytes=1g
set $iosize=1m
set $iters=10
set $nthreads=1
set $sync=false

define file name=largefile,path=$dir,size=0,prealloc  # growfile

define process name=filecreater,instances=1  # filecreate
{
  thread name=filecreaterthread,memsize=10m,instances=$nthreads  # appender
  {
    flowop appendfilerand name=append-file,filename=largefile,dsync=$sync,iosize=$iosize,iters=$iters,fd=1  # append
    flowop fsync name=sync,fd=1
    flowop finishonbytes name=finish,value=$bytes  # done
  }
}

echo "filemicro_createrand personality successfully loaded"
usage "filemicro_createrand variables (fsgauge: -s name=value):"
usage "  set \$dir=<path>            directory holding the file (fsgauge sets it from -d)"
usage "  set \$bytes=<size>          bytes written before the run ends (default $bytes)"
usage "  set \$iosize=<size>         upper bound of each random append (default $iosize)"
usage "  set \$iters=<n>             appends between fsyncs (default $iters)"
usage "  set \$nthreads=<n>          appending threads (default $nthreads)"
usage "  set \$sync=<bool>           open with O_DSYNC (default $sync)"
