# description: open and close: threads open and close random empty files in a large tree
# fsgauge built-in personality, MIT licence. Modelled on the filebench personality of the same name.
# Measures path lookup plus open/close cost over $nfiles empty files; no data is moved.

set $dir=/tmp
set $nfiles=50000
set $meandirwidth=100
set $nthreads=16

define fileset name=bigfileset,path=$dir,size=0,entries=$nfiles,dirwidth=$meandirwidth,prealloc  # emptyfiles

define process name=fileopen,instances=1  # opener
{
  thread name=fileopener,memsize=1m,instances=$nthreads  # openthread
  {
    flowop openfile name=open1,filesetname=bigfileset,fd=1  # open
    flowop closefile name=close1,fd=1  # close
  }
}

echo "openfiles personality successfully loaded"
usage "openfiles variables (fsgauge: -s name=value):"
usage "  set \$dir=<path>            directory holding the tree (fsgauge sets it from -d)"
usage "  set \$nfiles=<n>            empty files in the tree (default $nfiles)"
usage "  set \$meandirwidth=<n>      mean entries per directory (default $meandirwidth)"
usage "  set \$nthreads=<n>          opening threads (default $nthreads)"
