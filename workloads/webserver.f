# description: web server: many threads reading small static pages whole, plus appends to one access log
# fsgauge built-in personality, MIT licence. Modelled on the filebench personality of the same name.
# Read-mostly: ten open/read/close of random pages, then one random-size append to a shared log.
#
# The page set is created fully up front and never modified (readonly). The log
# is a one-file set; the log append names fd 2 without an explicit open, so the
# log file is opened on first use and stays open for the thread's lifetime.
#
# Page sizes follow a gamma distribution (mean 16 KiB, shape 1.5), given as a
# cvar the way filebench 1.5 does.

set $dir=/tmp
set $nfiles=1000
set $meandirwidth=20
set $filesize=cvar(type=cvar-gamma,parameters=mean:16384;gamma:1.5)
set $nthreads=100
set $iosize=1m
set $meanappendsize=16k

define fileset name=htdocs,path=$dir,size=$filesize,entries=$nfiles,dirwidth=$meandirwidth,prealloc=100,readonly
define fileset name=accesslog,path=$dir,size=$filesize,entries=1,dirwidth=$meandirwidth,prealloc

define process name=httpd,instances=1
{
  thread name=httpworker,memsize=10m,instances=$nthreads
  {
    flowop openfile name=page1-open,filesetname=htdocs,fd=1
    flowop readwholefile name=page1-read,iosize=$iosize,fd=1
    flowop closefile name=page1-close,fd=1
    flowop openfile name=page2-open,filesetname=htdocs,fd=1
    flowop readwholefile name=page2-read,iosize=$iosize,fd=1
    flowop closefile name=page2-close,fd=1
    flowop openfile name=page3-open,filesetname=htdocs,fd=1
    flowop readwholefile name=page3-read,iosize=$iosize,fd=1
    flowop closefile name=page3-close,fd=1
    flowop openfile name=page4-open,filesetname=htdocs,fd=1
    flowop readwholefile name=page4-read,iosize=$iosize,fd=1
    flowop closefile name=page4-close,fd=1
    flowop openfile name=page5-open,filesetname=htdocs,fd=1
    flowop readwholefile name=page5-read,iosize=$iosize,fd=1
    flowop closefile name=page5-close,fd=1
    flowop openfile name=page6-open,filesetname=htdocs,fd=1
    flowop readwholefile name=page6-read,iosize=$iosize,fd=1
    flowop closefile name=page6-close,fd=1
    flowop openfile name=page7-open,filesetname=htdocs,fd=1
    flowop readwholefile name=page7-read,iosize=$iosize,fd=1
    flowop closefile name=page7-close,fd=1
    flowop openfile name=page8-open,filesetname=htdocs,fd=1
    flowop readwholefile name=page8-read,iosize=$iosize,fd=1
    flowop closefile name=page8-close,fd=1
    flowop openfile name=page9-open,filesetname=htdocs,fd=1
    flowop readwholefile name=page9-read,iosize=$iosize,fd=1
    flowop closefile name=page9-close,fd=1
    flowop openfile name=page10-open,filesetname=htdocs,fd=1
    flowop readwholefile name=page10-read,iosize=$iosize,fd=1
    flowop closefile name=page10-close,fd=1
    flowop appendfilerand name=log-append,filesetname=accesslog,iosize=$meanappendsize,fd=2
  }
}

echo "webserver personality successfully loaded"
usage "webserver variables (fsgauge: -s name=value):"
usage "  set \$dir=<path>            directory holding the pages (fsgauge sets it from -d)"
usage "  set \$nfiles=<n>            pages in the document tree (default $nfiles)"
usage "  set \$meandirwidth=<n>      mean entries per directory (default $meandirwidth)"
usage "  set \$filesize=<size|cvar>  page size (default gamma, mean 16k, shape 1.5)"
usage "  set \$nthreads=<n>          concurrent server threads (default $nthreads)"
usage "  set \$iosize=<size>         read size for whole-file reads (default $iosize)"
usage "  set \$meanappendsize=<size> upper bound of each log append (default $meanappendsize)"
