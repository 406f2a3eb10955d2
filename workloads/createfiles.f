# description: file creation: threads create and write small files into an empty tree until it is full
# fsgauge built-in personality, MIT licence. Modelled on the filebench personality of the same name.
# Populates a tree of $nfiles files with create, write-whole, close; ends after $nfiles creates.
#
# Nothing is preallocated, so every create makes a new directory entry and
# allocates data blocks. Filebench ends the run when the set has no free slot
# left; here finishoncount ends it after $nfiles creates.

set $dir=/tmp
set $nfiles=50000
set $meandirwidth=100
set $meanfilesize=16k
set $iosize=1m
set $nthreads=16

define fileset name=bigfileset,path=$dir,size=$meanfilesize,entries=$nfiles,dirwidth=$meandirwidth  # newfiles

define process name=filecreate,instances=1  # creator
{
  thread name=filecreatethread,memsize=10m,instances=$nthreads  # createthread
  {
    flowop createfile name=createfile1,filesetname=bigfileset,fd=1  # create
    flowop writewholefile name=writefile1,iosize=$iosize,fd=1  # fill
    flowop closefile name=closefile1,fd=1  # close
    flowop finishoncount name=finish,value=$nfiles,target=createfile1  # done
  }
}

echo "createfiles personality successfully loaded"
usage "createfiles variables (fsgauge: -s name=value):"
usage "  set \$dir=<path>            directory holding the tree (fsgauge sets it from -d)"
usage "  set \$nfiles=<n>            files to create (default $nfiles)"
usage "  set \$meandirwidth=<n>      mean entries per directory (default $meandirwidth)"
usage "  set \$meanfilesize=<size>   size of each file (default $meanfilesize)"
usage "  set \$iosize=<size>         write size (default $iosize)"
usage "  set \$nthreads=<n>          creating threads (default $nthreads)"
