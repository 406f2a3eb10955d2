# description: a small mail server: many small files, fsync after appends
#
# Test personality for the parser's golden tests (not a built-in).

set $dir=/tmp
set $nfiles=2000
set $meandirwidth=500
set $filesize=cvar(type=cvar-gamma,parameters=mean:16384;gamma:1.5)
set $nthreads=8
set $iosize=1m
set $meanappendsize=16k

define fileset name=mailbox,path=$dir,size=$filesize,entries=$nfiles,
	dirwidth=$meandirwidth,prealloc=80

define process name=server,instances=1
{
  thread name=worker,memsize=10m,instances=$nthreads
  {
    flowop deletefile name=drop,filesetname=mailbox
    flowop createfile name=deliver,filesetname=mailbox,fd=1
    flowop appendfilerand name=append,iosize=$meanappendsize,fd=1
    flowop fsync name=sync1,fd=1
    flowop closefile name=close1,fd=1
    flowop openfile name=open2,filesetname=mailbox,fd=1
    flowop readwholefile name=read2,fd=1,iosize=$iosize
    flowop appendfilerand name=append2,iosize=$meanappendsize,fd=1
    flowop fsync name=sync2,fd=1
    flowop closefile name=close2,fd=1
  }
}

echo "mail server test personality loaded"
usage "usage: set \$dir=<dir>        (now $dir)"
usage "       set \$nthreads=<n>    (now $nthreads)"
run 60
