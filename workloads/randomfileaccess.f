# description: skewed random file access: hot files opened three at a time, one appended, two read whole
# fsgauge built-in personality, MIT licence. Modelled on the filebench personality of the same name.
# Exercises indexed file choice: a gamma randvar makes a few files far more popular than the rest.
#
# One loop pass opens three files picked through $fileidx, appends a
# gamma-sized amount to the first, and reads the other two whole with
# table-driven read sizes. File sizes come from a table that favours small
# files but reaches 1.7 MiB.

set $dir=/tmp
set $cached=false
set $meandirwidth=20
set $nthreads=5
set $nfiles=10000

define randvar name=$wrtiosize,type=gamma,min=512,round=512,mean=16k

define randvar name=$rdiosize,type=tabular,min=8k,round=1k,randtable=
{{85,  8k,  8k},
 {15,  8k, 64k}
}

define randvar name=$filesize,type=tabular,min=1k,randtable=
{{33,   1k,    1k},
 {21,   1k,    3k},
 {13,   3k,    5k},
 {10,   5k,   11k},
 { 8,  11k,   21k},
 { 5,  21k,   43k},
 { 4,  43k,   85k},
 { 3,  85k,  171k},
 { 2, 171k,  341k},
 { 1, 341k, 1707k}
}

define randvar name=$fileidx,type=gamma,min=0,gamma=100

define fileset name=bigfileset,path=$dir,size=$filesize,entries=$nfiles,dirwidth=$meandirwidth,prealloc=100,cached=$cached  # userfiles

define process name=netclient,instances=1  # fileclient
{
  thread name=fileuser,memsize=10m,instances=$nthreads
  {
    flowop openfile name=openfile1,filesetname=bigfileset,indexed=$fileidx,fd=1  # open1
    flowop openfile name=openfile2,filesetname=bigfileset,indexed=$fileidx,fd=2  # open2
    flowop openfile name=openfile3,filesetname=bigfileset,indexed=$fileidx,fd=3  # open3
    flowop appendfilerand name=appendfilerand1,iosize=$wrtiosize,fd=1  # append1
    flowop closefile name=closefile1,fd=1  # close1
    flowop readwholefile name=readfile1,iosize=$rdiosize,fd=2  # read2
    flowop readwholefile name=readfile2,iosize=$rdiosize,fd=3  # read3
    flowop closefile name=closefile2,fd=2  # close2
    flowop closefile name=closefile3,fd=3  # close3
  }
}

echo "randomfileaccess personality successfully loaded"
usage "randomfileaccess variables (fsgauge: -s name=value):"
usage "  set \$dir=<path>            directory holding the tree (fsgauge sets it from -d)"
usage "  set \$cached=<bool>         keep created files in the page cache (default $cached)"
usage "  set \$meandirwidth=<n>      mean entries per directory (default $meandirwidth)"
usage "  set \$nthreads=<n>          client threads (default $nthreads)"
usage "  set \$nfiles=<n>            files in the tree (default $nfiles)"
usage "  append sizes: gamma, mean 16k, multiples of 512; read sizes and file sizes: tables above"
