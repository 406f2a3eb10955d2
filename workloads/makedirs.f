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

define fileset name=bigfileset,path=$dir,size=0,leafdirs=$ndirs,dirwidth=$meandirwidth  # dirtree

define process name=dirmake,instances=1  # dirmaker
{
  thread name=dirmaker,memsize=1m,instances=$nthreads  # mkdirthread
  {
    flowop makedir name=mkdir1,filesetname=bigfileset  # mkdir
    flowop finishoncount name=finish,value=$ndirs,target=mkdir1  # done
  }
}

echo "makedirs personality successfully loaded"
usage "makedirs variables (fsgauge: -s name=value):"
usage "  set \$dir=<path>            directory holding the tree (fsgauge sets it from -d)"
usage "  set \$ndirs=<n>             leaf directories to create (default $ndirs)"
usage "  set \$meandirwidth=<n>      mean entries per directory (default $meandirwidth)"
usage "  set \$nthreads=<n>          mkdir threads (default $nthreads)"
