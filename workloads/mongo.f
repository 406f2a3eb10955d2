# description: document store: append to and reread small post files while a second set is deleted away
# fsgauge built-in personality, MIT licence. Modelled on the filebench personality of the same name.
# A single thread appends to a post, reads a post whole, and deletes one file; it ends when none are left.
#
# Two file sets of equal size: "postset" is updated and read, "postsetdel" only
# loses a file per pass. Filebench ends this run when the thread finds nothing
# left to delete; here finishoncount ends it after $nfiles deletions.

set $dir=/tmp
set $nfiles=1000
set $dirwidth=20
set $filesize=16k
set $nthreads=1
set $meaniosize=16k
set $readiosize=1m

define fileset name=postset,path=$dir,size=$filesize,entries=$nfiles,dirwidth=$dirwidth,prealloc,paralloc  # posts
define fileset name=postsetdel,path=$dir,size=$filesize,entries=$nfiles,dirwidth=$dirwidth,prealloc,paralloc  # postsdel

define process name=filereader,instances=1  # mongo
{
  thread name=filereaderthread,memsize=10m,instances=$nthreads  # docworker
  {
    flowop openfile name=openfile1,filesetname=postset,fd=1  # update-open
    flowop appendfilerand name=appendfilerand1,iosize=$meaniosize,fd=1  # update-append
    flowop closefile name=closefile1,fd=1  # update-close
    flowop openfile name=openfile2,filesetname=postset,fd=1  # query-open
    flowop readwholefile name=readfile1,iosize=$readiosize,fd=1  # query-read
    flowop closefile name=closefile2,fd=1  # query-close
    flowop deletefile name=deletefile1,filesetname=postsetdel  # purge
    flowop finishoncount name=finish,value=$nfiles,target=deletefile1  # done
  }
}

echo "mongo personality successfully loaded"
usage "mongo variables (fsgauge: -s name=value):"
usage "  set \$dir=<path>            directory holding the files (fsgauge sets it from -d)"
usage "  set \$nfiles=<n>            files in each of the two sets; also the run length (default $nfiles)"
usage "  set \$dirwidth=<n>          mean entries per directory (default $dirwidth)"
usage "  set \$filesize=<size>       initial file size (default $filesize)"
usage "  set \$nthreads=<n>          worker threads (default $nthreads)"
usage "  set \$meaniosize=<size>     upper bound of each random append (default $meaniosize)"
usage "  set \$readiosize=<size>     read size for whole-file reads (default $readiosize)"
