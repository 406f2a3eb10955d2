# description: document store: append to and reread small post files while a second set is deleted away
# fsgauge built-in personality, MIT licence. Modelled on the filebench personality of the same name.
# A single thread appends to a post, reads a post whole, and deletes one file; it ends when none are left.
#
# Two file sets of equal size: "posts" is updated and read, "postsdel" only
# loses a file per pass. Filebench ends this run when the thread finds nothing
# left to delete; here finishoncount ends it after $nfiles deletions.

set $dir=/tmp
set $nfiles=1000
set $dirwidth=20
set $filesize=16k
set $nthreads=1
set $meaniosize=16k
set $readiosize=1m

define fileset name=posts,path=$dir,size=$filesize,entries=$nfiles,dirwidth=$dirwidth,prealloc,paralloc
define fileset name=postsdel,path=$dir,size=$filesize,entries=$nfiles,dirwidth=$dirwidth,prealloc,paralloc

define process name=mongo,instances=1
{
  thread name=docworker,memsize=10m,instances=$nthreads
  {
    flowop openfile name=update-open,filesetname=posts,fd=1
    flowop appendfilerand name=update-append,iosize=$meaniosize,fd=1
    flowop closefile name=update-close,fd=1
    flowop openfile name=query-open,filesetname=posts,fd=1
    flowop readwholefile name=query-read,iosize=$readiosize,fd=1
    flowop closefile name=query-close,fd=1
    flowop deletefile name=purge,filesetname=postsdel
    flowop finishoncount name=done,value=$nfiles,target=purge
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
