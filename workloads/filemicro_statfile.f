# description: stat random files of a populated tree with many threads
# fsgauge built-in personality, MIT licence. Modelled on the filebench personality of the same name.
# Twenty threads call stat on random existing files for the whole run; no data is read.

set $dir=/tmp
set $nfiles=10000
set $meandirwidth=20
set $filesize=128k
set $nthreads=20

define fileset name=bigfileset,path=$dir,size=$filesize,entries=$nfiles,dirwidth=$meandirwidth,prealloc=100  # statfiles

define process name=examinefiles,instances=1  # examine
{
  thread name=examinefilethread,memsize=10m,instances=$nthreads  # statter
  {
    flowop statfile name=statfile1,filesetname=bigfileset  # stat
  }
}

echo "filemicro_statfile personality successfully loaded"
usage "filemicro_statfile variables (fsgauge: -s name=value):"
usage "  set \$dir=<path>            directory holding the tree (fsgauge sets it from -d)"
usage "  set \$nfiles=<n>            files in the tree (default $nfiles)"
usage "  set \$meandirwidth=<n>      mean entries per directory (default $meandirwidth)"
usage "  set \$filesize=<size>       size of each file (default $filesize)"
usage "  set \$nthreads=<n>          stat threads (default $nthreads)"
