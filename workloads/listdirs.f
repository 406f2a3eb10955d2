# description: directory listing: threads read every entry of random directories in a deep tree
# fsgauge built-in personality, MIT licence. Modelled on the filebench personality of the same name.
# Builds a narrow, deep tree of $nfiles empty files, then lists random directories for the whole run.
#
# A small directory width makes the tree deep. Each listdir opens a directory,
# reads all of its entries and closes it; the bytes reported are the sizes of
# the directory entries read.

set $dir=/tmp
set $nfiles=50000
set $meandirwidth=5
set $nthreads=16

define fileset name=bigfileset,path=$dir,size=0,entries=$nfiles,dirwidth=$meandirwidth,prealloc  # dirtree

define process name=lsdir,instances=1  # lister
{
  thread name=dirlister,memsize=1m,instances=$nthreads  # listthread
  {
    flowop listdir name=open1,filesetname=bigfileset  # readdir
  }
}

echo "listdirs personality successfully loaded"
usage "listdirs variables (fsgauge: -s name=value):"
usage "  set \$dir=<path>            directory holding the tree (fsgauge sets it from -d)"
usage "  set \$nfiles=<n>            empty files in the tree (default $nfiles)"
usage "  set \$meandirwidth=<n>      mean entries per directory (default $meandirwidth)"
usage "  set \$nthreads=<n>          listing threads (default $nthreads)"
