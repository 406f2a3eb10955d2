# description: directory removal: threads rmdir every empty leaf directory of a prebuilt tree
# fsgauge built-in personality, MIT licence. Modelled on the filebench personality of the same name.
# Builds a tree with $ndirs empty leaf directories, then removes them all; ends after $ndirs rmdirs.
#
# The fileset holds directories only (leafdirs, size 0), all created before the
# run. Filebench ends the run when no leaf is left; here finishoncount ends it
# after $ndirs removals.

set $dir=/tmp
set $ndirs=10000
set $meandirwidth=100
set $nthreads=16

define fileset name=bigfileset,path=$dir,size=0,leafdirs=$ndirs,dirwidth=$meandirwidth,prealloc  # dirtree

define process name=remdir,instances=1  # dirremover
{
  thread name=removedirectory,memsize=1m,instances=$nthreads  # rmdirthread
  {
    flowop removedir name=dirremover,filesetname=bigfileset  # rmdir
    flowop finishoncount name=finish,value=$ndirs,target=dirremover  # done
  }
}

echo "removedirs personality successfully loaded"
usage "removedirs variables (fsgauge: -s name=value):"
usage "  set \$dir=<path>            directory holding the tree (fsgauge sets it from -d)"
usage "  set \$ndirs=<n>             leaf directories to remove (default $ndirs)"
usage "  set \$meandirwidth=<n>      mean entries per directory (default $meandirwidth)"
usage "  set \$nthreads=<n>          rmdir threads (default $nthreads)"
