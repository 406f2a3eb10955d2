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

define fileset name=bigfileset,path=$dir,size=$meanfilesize,entries=$nfiles,dirwidth=$meandirwidth,prealloc=100,paralloc  # srcfiles
define fileset name=destfiles,path=$dir,size=$meanfilesize,entries=$nfiles,dirwidth=$meandirwidth  # dstfiles

define process name=filereader,instances=1  # copier
{
  thread name=filereaderthread,memsize=10m,instances=$nthreads  # copythread
  {
    flowop openfile name=openfile1,filesetname=bigfileset,fd=1  # src-open
    flowop readwholefile name=readfile1,iosize=$iosize,fd=1  # src-read
    flowop createfile name=createfile2,filesetname=destfiles,fd=2  # dst-create
    flowop writewholefile name=writefile2,iosize=$iosize,fd=2,srcfd=1  # dst-write
    flowop closefile name=closefile1,fd=1  # src-close
    flowop closefile name=closefile2,fd=2  # dst-close
    flowop finishoncount name=finish,value=$nfiles,target=createfile2  # done
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
