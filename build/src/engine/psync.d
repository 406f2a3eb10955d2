build/src/engine/psync.o: src/engine/psync.c src/engine/engine.h \
 src/util/util.h
src/engine/engine.h:
src/util/util.h:
