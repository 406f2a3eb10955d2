# description: open and close: threads open and close random empty files in a large tree
# fsgauge built-in personality, MIT licence. Modelled on the filebench personality of the same name.
# Measures path lookup plus open/close cost over $nfiles empty files; no data is moved.

set $dir=/tmp
set $nfiles=50000
set $meandirwidth=100
set $nthreads=16

define fileset name=emptyfiles,path=$dir,size=0,entries=$nfiles,dirwidth=$meandirwidth,prealloc

define process name=opener,instances=1
{
  thread name=openthread,memsize=1m,instances=$nthreads
  {
    flowop openfile name=open,filesetname=emptyfiles,fd=1
    flowop closefile name=close,fd=1
  }
}

echo "openfiles personality successfully loaded"
usage "openfiles variables (fsgauge: -s name=value):"
usage "  set \$dir=<path>            directory holding the tree (fsgauge sets it from -d)"
usage "  set \$nfiles=<n>            empty files in the tree (default $nfiles)"
usage "  set \$meandirwidth=<n>      mean entries per directory (default $meandirwidth)"
usage "  set \$nthreads=<n>          opening threads (default $nthreads)"
