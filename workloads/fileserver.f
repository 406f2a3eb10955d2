# description: file server: whole-file create, write, append, read, delete and stat over a directory tree
# fsgauge built-in personality, MIT licence. Modelled on the filebench personality of the same name.
# Many threads run a SPECsfs-like mix of metadata and data operations on a tree of medium files.
#
# One loop pass is: create a file and write it whole; reopen a file and append a
# random amount; reopen a file and read it whole; delete a file; stat a file.
# With 50 threads and 10000 files of about 128 KiB this stresses allocation,
# directory updates and streaming data paths together.
#
# File sizes follow a gamma distribution (mean 128 KiB, shape 1.5), given as a
# cvar the way filebench 1.5 does.

set $dir=/tmp
set $nfiles=10000
set $meandirwidth=20
set $filesize=cvar(type=cvar-gamma,parameters=mean:131072;gamma:1.5)
set $nthreads=50
set $iosize=1m
set $meanappendsize=16k

define fileset name=bigfileset,path=$dir,size=$filesize,entries=$nfiles,dirwidth=$meandirwidth,prealloc=80  # sharedfiles

define process name=filereader,instances=1  # fileserver
{
  thread name=filereaderthread,memsize=10m,instances=$nthreads  # fileworker
  {
    flowop createfile name=createfile1,filesetname=bigfileset,fd=1  # new-create
    flowop writewholefile name=wrtfile1,iosize=$iosize,fd=1,srcfd=1  # new-write
    flowop closefile name=closefile1,fd=1  # new-close
    flowop openfile name=openfile1,filesetname=bigfileset,fd=1  # append-open
    flowop appendfilerand name=appendfilerand1,iosize=$meanappendsize,fd=1  # append-write
    flowop closefile name=closefile2,fd=1  # append-close
    flowop openfile name=openfile2,filesetname=bigfileset,fd=1  # fetch-open
    flowop readwholefile name=readfile1,iosize=$iosize,fd=1  # fetch-read
    flowop closefile name=closefile3,fd=1  # fetch-close
    flowop deletefile name=deletefile1,filesetname=bigfileset  # remove
    flowop statfile name=statfile1,filesetname=bigfileset  # getattr
  }
}

echo "fileserver personality successfully loaded"
usage "fileserver variables (fsgauge: -s name=value):"
usage "  set \$dir=<path>            directory holding the tree (fsgauge sets it from -d)"
usage "  set \$nfiles=<n>            files in the tree (default $nfiles)"
usage "  set \$meandirwidth=<n>      mean entries per directory (default $meandirwidth)"
usage "  set \$filesize=<size|cvar>  file size (default gamma, mean 128k, shape 1.5)"
usage "  set \$nthreads=<n>          concurrent client threads (default $nthreads)"
usage "  set \$iosize=<size>         I/O size for whole-file reads and writes (default $iosize)"
usage "  set \$meanappendsize=<size> upper bound of each random append (default $meanappendsize)"
