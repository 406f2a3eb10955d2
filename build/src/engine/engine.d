build/src/engine/engine.o: src/engine/engine.c src/engine/engine.h \
 src/util/util.h
src/engine/engine.h:
src/util/util.h:
