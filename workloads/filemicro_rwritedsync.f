# description: random 2 KiB O_DSYNC overwrites of a 1 GiB file, 65536 of them
# fsgauge built-in personality, MIT licence. Modelled on the filebench personality of the same name.
# A single thread does synchronous random writes; each must reach stable storage before the next.
#
# finishoncount without a target counts every operation of the run, here the
# writes, and ends it after $count.

set $dir=/tmp
set $count=65536
set $filesize=1g
set $iosize=2k
set $iters=1
set $nthreads=1

define file name=bigfile,path=$dir,size=$filesize,prealloc,reuse

define process name=filewriter,instances=1
{
  thread name=filewriterthread,memsize=10m,instances=$nthreads  # writer
  {
    flowop write name=write-file,filename=bigfile,random,dsync,iosize=$iosize,iters=$iters  # rand-write
    flowop finishoncount name=finish,value=$count  # done
  }
}

echo "filemicro_rwritedsync personality successfully loaded"
usage "filemicro_rwritedsync variables (fsgauge: -s name=value):"
usage "  set \$dir=<path>            directory holding the file (fsgauge sets it from -d)"
usage "  set \$count=<n>             writes before the run ends (default $count)"
usage "  set \$filesize=<size>       size of the file (default $filesize)"
usage "  set \$iosize=<size>         size of each write (default $iosize)"
usage "  set \$iters=<n>             writes per loop pass (default $iters)"
usage "  set \$nthreads=<n>          writing threads (default $nthreads)"
