# description: many filesets and files, several processes, late settings
#
# Test personality for the parser's golden tests (not a built-in).

set $base=/mnt/bench
set $small=4k
set $large=1g
set $stream=1m
set $readonly=true

define file name=log.db,path=$base,size=$large,prealloc,reuse
define file name=index.db,path=$base,size=256m,prealloc,reuse,readonly=$readonly
define fileset name=thumbs,path=$base,size=$small,entries=50k,dirwidth=1k,leafdirs=10,prealloc=100
define fileset name=uploads,path=$base,size=$stream,entries=1000,dirwidth=50,dirgamma=0,trusttree
define fileset name=scratch,path=$base,entries=0,dirwidth=20,dirdepthrv=3

define process name=logger,instances=1
{
  thread name=appender,memsize=1m
  {
    flowop appendfile name=log,filename=log.db,iosize=8k,dsync
    flowop semblock name=wait,value=10,highwater=100
  }
}

define process name=web,instances=4
{
  thread name=reader,memsize=8m,instances=16
  {
    flowop read name=thumb,filesetname=thumbs,iosize=$small,opennext
    flowop read name=idx,filename=index.db,iosize=$small,random,directio
    flowop sempost name=kick,value=1,target=wait,blocking
    flowop opslimit name=cap
  }
  thread name=uploader,instances=2
  {
    flowop createfile name=new,filesetname=uploads,fd=3
    flowop writewholefile name=fill,fd=3,iosize=$stream
    flowop closefile name=done,fd=3
    flowop makedir name=mk,filesetname=scratch
    flowop listdir name=ls,filesetname=scratch
    flowop removedir name=rmd,filesetname=scratch
    flowop renamefile name=mv,filesetname=uploads
    flowop print name=say,value="uploaded one"
    flowop finishonbytes name=enough,value=10g
  }
}

set $small=8k
set $base=/mnt/other
debug 3
set mode quit firstdone
echo "files under $base"
run 300
