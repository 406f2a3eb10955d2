# description: grow a new file with 131072 sequential appends sized from a weighted table, then stop
# fsgauge built-in personality, MIT licence. Modelled on the filebench personality of the same name.
# Append sizes come from a tabular randvar over 1 KiB to 64 KiB; one pass, then the run ends.
#
# The table gives 80% of appends between 1 and 4 KiB, 15% between 4 and 16 KiB
# and 5% between 16 and 64 KiB. Each thread gets its own empty file. The
# finishoncount (value 1, no target) ends the run after the first pass.

set $dir=/tmp
set $nthreads=1
set $cached=false
set $sync=false
set $count=128k

define randvar name=$iosize,type=tabular,min=1k,randtable=
{{80,  1k,  4k},
 {15,  4k, 16k},
 { 5, 16k, 64k}
}

define fileset name=bigfileset,path=$dir,size=0,entries=$nthreads,dirwidth=1024,prealloc=100,cached=$cached  # growfiles

define process name=filewriter,instances=1
{
  thread name=filewriterthread,memsize=10m,instances=$nthreads  # writer
  {
    flowop openfile name=open-file,filesetname=bigfileset,fd=1  # open
    flowop appendfile name=write-file,dsync=$sync,iosize=$iosize,fd=1,iters=$count  # table-append
    flowop closefile name=close,fd=1
    flowop finishoncount name=finish,value=1  # done
  }
}

echo "filemicro_seqwriterandvartab personality successfully loaded"
usage "filemicro_seqwriterandvartab variables (fsgauge: -s name=value):"
usage "  set \$dir=<path>            directory holding the files (fsgauge sets it from -d)"
usage "  set \$nthreads=<n>          writing threads, one file each (default $nthreads)"
usage "  set \$cached=<bool>         leave the new files in the page cache (default $cached)"
usage "  set \$sync=<bool>           open with O_DSYNC (default $sync)"
usage "  set \$count=<n>             appends in the single pass (default $count)"
usage "  append size: randvar \$iosize, weighted table 1k-4k 80%, 4k-16k 15%, 16k-64k 5%"
