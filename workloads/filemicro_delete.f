# description: delete files from a populated tree with many threads, then stop
# fsgauge built-in personality, MIT licence. Modelled on the filebench personality of the same name.
# Sixteen threads unlink random existing files; the run stops after $count deletions in total.
#
# All $nfiles files exist before the run. finishoncount without a target counts
# every operation of the run, here the deletes. The opslimit only throttles when
# an eventgen rate is set; this file sets none, so threads run free.

set $dir=/tmp
set $count=1000
set $filesize=16k
set $nfiles=5000
set $meandirwidth=100
set $nthreads=16

define fileset name=bigfileset,path=$dir,size=$filesize,entries=$nfiles,dirwidth=$meandirwidth,prealloc=100,paralloc  # doomed

define process name=filedelete,instances=1
{
  thread name=filedeletethread,memsize=10m,instances=$nthreads  # deleter
  {
    flowop deletefile name=deletefile1,filesetname=bigfileset  # delete
    flowop opslimit name=limit  # throttle
    flowop finishoncount name=finish,value=$count  # done
  }
}

echo "filemicro_delete personality successfully loaded"
usage "filemicro_delete variables (fsgauge: -s name=value):"
usage "  set \$dir=<path>            directory holding the tree (fsgauge sets it from -d)"
usage "  set \$count=<n>             deletions before the run ends (default $count)"
usage "  set \$filesize=<size>       size of each file (default $filesize)"
usage "  set \$nfiles=<n>            files created up front (default $nfiles)"
usage "  set \$meandirwidth=<n>      mean entries per directory (default $meandirwidth)"
usage "  set \$nthreads=<n>          deleting threads (default $nthreads)"
