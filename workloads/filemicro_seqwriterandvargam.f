# description: grow a new file with 131072 sequential appends sized by a gamma distribution, then stop
# fsgauge built-in personality, MIT licence. Modelled on the filebench personality of the same name.
# Append sizes come from a gamma randvar (at least 1 KiB, mean 5.5 KiB); one pass, then the run ends.
#
# Each thread gets its own empty file (the set has $nthreads entries). The randvar
# gamma parameter is in thousandths, so gamma=1500 is a shape of 1.5. The
# finishoncount (value 1, no target) ends the run after the first pass.

set $dir=/tmp
set $nthreads=1
set $cached=false
set $sync=false
set $count=128k

define randvar name=$iosize,type=gamma,min=1k,mean=5632,gamma=1500

define fileset name=bigfileset,path=$dir,size=0,entries=$nthreads,dirwidth=1024,prealloc=100,cached=$cached  # growfiles

define process name=filewriter,instances=1
{
  thread name=filewriterthread,memsize=10m,instances=$nthreads  # writer
  {
    flowop openfile name=open-file,filesetname=bigfileset,fd=1  # open
    flowop appendfile name=write-file,dsync=$sync,iosize=$iosize,fd=1,iters=$count  # gamma-append
    flowop closefile name=close,fd=1
    flowop finishoncount name=finish,value=1  # done
  }
}

echo "filemicro_seqwriterandvargam personality successfully loaded"
usage "filemicro_seqwriterandvargam variables (fsgauge: -s name=value):"
usage "  set \$dir=<path>            directory holding the files (fsgauge sets it from -d)"
usage "  set \$nthreads=<n>          writing threads, one file each (default $nthreads)"
usage "  set \$cached=<bool>         leave the new files in the page cache (default $cached)"
usage "  set \$sync=<bool>           open with O_DSYNC (default $sync)"
usage "  set \$count=<n>             appends in the single pass (default $count)"
usage "  append size: randvar \$iosize, gamma, min 1k, mean 5632, shape 1.5"
