# description: random variables in both forms, cvars and arithmetic
#
# Test personality for the parser's golden tests (not a built-in).

set $dir=/data
set $nthreads=4
set $filesperthread=250
set $nfiles=$nthreads * $filesperthread
set $half=$nfiles / 2
set $ratio=$half * 0.5

define randvar name=$wsize, type=gamma, min=1k, mean=24k, gamma=1500, round=1k
set $rsize = randvar(type=tabular, min=4k, round=4k, randtable =
{{ 60,   4k,   8k},
 { 30,   8k,  64k},
 { 10,  64k, 256k}
})
set $pick = randvar(type=uniform, min=0, max=1, seed=42)
set $think = cvar(type=cvar-exponential, parameters=mean:0.01)

define fileset name=objects,path=$dir,entries=$nfiles,dirwidth=100,
	size=cvar(type=cvar-lognormal,parameters=shape:1.2;scale:10,min=512,max=64m),
	prealloc=50,reuse,cached=false

define process name=store,instances=1,nice=0
{
  thread name=rw,memsize=4m,instances=$nthreads,useism
  {
    flowop openfile name=open,filesetname=objects,indexed=$pick,fd=1
    flowop read name=get,fd=1,iosize=$rsize,random,workingset=16m
    flowop write name=put,fd=1,iosize=$wsize,random,dsync
    flowop closefile name=close,fd=1
    flowop delay name=think,value=$think
    flowop testrandvar name=check,value=$wsize
  }
}

set $nthreads=6
psrun -10 120
