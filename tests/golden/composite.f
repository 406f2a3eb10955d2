# description: composite flowops with parameters, defaults and nesting
#
# Test personality for the parser's golden tests (not a built-in).

set $dir=/tmp
set $chunk=64k

define fileset name=src,path=$dir,size=1m,entries=100,dirwidth=10,prealloc
define fileset name=dst,path=$dir,size=1m,entries=100,dirwidth=10

# copy one file: $from is read, $to is written
define flowop name=copy, $from, $to, $bs=$chunk
{
  flowop openfile name=open-in,filesetname=$from,fd=1
  flowop createfile name=open-out,filesetname=$to,fd=2
  flowop readwholefile name=read,fd=1,iosize=$bs
  flowop writewholefile name=write,fd=2,srcfd=1,iosize=$bs
  flowop closefile name=close-in,fd=1
  flowop closefile name=close-out,fd=2
}

define flowop name=batch, iters=4, $set
{
  flowop copy name=c, $from=$set, $to=dst
  flowop deletefile name=rm,filesetname=dst
}

define process name=copier,instances=2
{
  thread name=t1
  {
    flowop batch name=b1, $set=src
    flowop copy name=big, iters=2, $from=src, $to=dst, $bs=1m
    flowop eventlimit name=limit
  }
}

eventgen rate=100
set mode quit alldone
run
