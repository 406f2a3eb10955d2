# description: grow one empty file by 1024 appends of 1 MiB, then stop
# fsgauge built-in personality, MIT licence. Modelled on the filebench personality of the same name.
# Measures file growth: a single thread appends fixed-size blocks to an empty file; 1 GiB by default.
#
# The run ends once $count operations have completed (finishoncount without a
# target counts every operation of the run). Set $sync=true to open with O_DSYNC.

set $dir=/tmp
set $count=1024
set $iosize=1m
set $nthreads=1
set $sync=false

define file name=largefile,path=$dir,size=0,prealloc  # growfile

define process name=filecreater,instances=1  # filecreate
{
  thread name=filecreaterthread,memsize=10m,instances=$nthreads  # appender
  {
    flowop appendfile name=append-file,filename=largefile,dsync=$sync,iosize=$iosize  # append
    flowop finishoncount name=finish,value=$count  # done
  }
}

echo "filemicro_create personality successfully loaded"
usage "filemicro_create variables (fsgauge: -s name=value):"
usage "  set \$dir=<path>            directory holding the file (fsgauge sets it from -d)"
usage "  set \$count=<n>             operations before the run ends (default $count)"
usage "  set \$iosize=<size>         size of each append (default $iosize)"
usage "  set \$nthreads=<n>          appending threads (default $nthreads)"
usage "  set \$sync=<bool>           open with O_DSYNC (default $sync)"
