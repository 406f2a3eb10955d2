# description: directory creation: threads mkdir every leaf directory of a planned tree
# fsgauge built-in personality, MIT licence. Modelled on the filebench personality of the same name.
# Plans a tree with $ndirs empty leaf directories, none made up front, and creates them; ends after $ndirs.
#
# The fileset holds directories only (leafdirs, size 0). Filebench ends the run
# when no missing leaf is left; here finishoncount ends it after $ndirs mkdirs.

set $dir=/tmp
set $ndirs=10000
set $meandirwidth=100
set $nthreads=16

define fileset name=dirtree,path=$dir,size=0,leafdirs=$ndirs,dirwidth=$meandirwidth

define process name=dirmaker,instances=1
{
  thread name=mkdirthread,memsize=1m,instances=$nthreads
  {
    flowop makedir name=mkdir,filesetname=dirtree
    flowop finishoncount name=done,value=$ndirs,target=mkdir
  }
}

echo "makedirs personality successfully loaded"
usage "makedirs variables (fsgauge: -s name=value):"
usage "  set \$dir=<path>            directory holding the tree (fsgauge sets it from -d)"
usage "  set \$ndirs=<n>             leaf directories to create (default $ndirs)"
usage "  set \$meandirwidth=<n>      mean entries per directory (default $meandirwidth)"
usage "  set \$nthreads=<n>          mkdir threads (default $nthreads)"
