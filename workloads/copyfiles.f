# description: file copy: read source files whole and write each into a newly created destination file
# fsgauge built-in personality, MIT licence. Modelled on the filebench personality of the same name.
# Copies a tree of small files into a second, initially empty, tree; ends once $nfiles copies exist.
#
# Each pass opens a random source file, reads it whole, creates a destination
# file, writes it whole with the source's size, and closes both. Filebench ends
# the run when no destination slot is left; here finishoncount ends it after
# $nfiles destination creates.

set $dir=/tmp
set $nfiles=1000
set $meandirwidth=20
set $meanfilesize=16k
set $iosize=1m
set $nthreads=1

define fileset name=srcfiles,path=$dir,size=$meanfilesize,entries=$nfiles,dirwidth=$meandirwidth,prealloc=100,paralloc
define fileset name=dstfiles,path=$dir,size=$meanfilesize,entries=$nfiles,dirwidth=$meandirwidth

define process name=copier,instances=1
{
  thread name=copythread,memsize=10m,instances=$nthreads
  {
    flowop openfile name=src-open,filesetname=srcfiles,fd=1
    flowop readwholefile name=src-read,iosize=$iosize,fd=1
    flowop createfile name=dst-create,filesetname=dstfiles,fd=2
    flowop writewholefile name=dst-write,iosize=$iosize,fd=2,srcfd=1
    flowop closefile name=src-close,fd=1
    flowop closefile name=dst-close,fd=2
    flowop finishoncount name=done,value=$nfiles,target=dst-create
  }
}

echo "copyfiles personality successfully loaded"
usage "copyfiles variables (fsgauge: -s name=value):"
usage "  set \$dir=<path>            directory holding both trees (fsgauge sets it from -d)"
usage "  set \$nfiles=<n>            files in each tree; also the number of copies (default $nfiles)"
usage "  set \$meandirwidth=<n>      mean entries per directory (default $meandirwidth)"
usage "  set \$meanfilesize=<size>   source file size (default $meanfilesize)"
usage "  set \$iosize=<size>         read and write size (default $iosize)"
usage "  set \$nthreads=<n>          copying threads (default $nthreads)"
