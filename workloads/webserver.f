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

define fileset name=bigfileset,path=$dir,size=$filesize,entries=$nfiles,dirwidth=$meandirwidth,prealloc=100,readonly  # htdocs
define fileset name=logfiles,path=$dir,size=$filesize,entries=1,dirwidth=$meandirwidth,prealloc  # accesslog

define process name=filereader,instances=1  # httpd
{
  thread name=filereaderthread,memsize=10m,instances=$nthreads  # httpworker
  {
    flowop openfile name=openfile1,filesetname=bigfileset,fd=1  # page1-open
    flowop readwholefile name=readfile1,iosize=$iosize,fd=1  # page1-read
    flowop closefile name=closefile1,fd=1  # page1-close
    flowop openfile name=openfile2,filesetname=bigfileset,fd=1  # page2-open
    flowop readwholefile name=readfile2,iosize=$iosize,fd=1  # page2-read
    flowop closefile name=closefile2,fd=1  # page2-close
    flowop openfile name=openfile3,filesetname=bigfileset,fd=1  # page3-open
    flowop readwholefile name=readfile3,iosize=$iosize,fd=1  # page3-read
    flowop closefile name=closefile3,fd=1  # page3-close
    flowop openfile name=openfile4,filesetname=bigfileset,fd=1  # page4-open
    flowop readwholefile name=readfile4,iosize=$iosize,fd=1  # page4-read
    flowop closefile name=closefile4,fd=1  # page4-close
    flowop openfile name=openfile5,filesetname=bigfileset,fd=1  # page5-open
    flowop readwholefile name=readfile5,iosize=$iosize,fd=1  # page5-read
    flowop closefile name=closefile5,fd=1  # page5-close
    flowop openfile name=openfile6,filesetname=bigfileset,fd=1  # page6-open
    flowop readwholefile name=readfile6,iosize=$iosize,fd=1  # page6-read
    flowop closefile name=closefile6,fd=1  # page6-close
    flowop openfile name=openfile7,filesetname=bigfileset,fd=1  # page7-open
    flowop readwholefile name=readfile7,iosize=$iosize,fd=1  # page7-read
    flowop closefile name=closefile7,fd=1  # page7-close
    flowop openfile name=openfile8,filesetname=bigfileset,fd=1  # page8-open
    flowop readwholefile name=readfile8,iosize=$iosize,fd=1  # page8-read
    flowop closefile name=closefile8,fd=1  # page8-close
    flowop openfile name=openfile9,filesetname=bigfileset,fd=1  # page9-open
    flowop readwholefile name=readfile9,iosize=$iosize,fd=1  # page9-read
    flowop closefile name=closefile9,fd=1  # page9-close
    flowop openfile name=openfile10,filesetname=bigfileset,fd=1  # page10-open
    flowop readwholefile name=readfile10,iosize=$iosize,fd=1  # page10-read
    flowop closefile name=closefile10,fd=1  # page10-close
    flowop appendfilerand name=appendlog,filesetname=logfiles,iosize=$meanappendsize,fd=2  # log-append
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
