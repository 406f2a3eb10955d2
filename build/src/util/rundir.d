build/src/util/rundir.o: src/util/rundir.c src/util/rundir.h \
 src/util/util.h
src/util/rundir.h:
src/util/util.h:
