build/src/engine/null.o: src/engine/null.c src/engine/engine.h \
 src/util/util.h
src/engine/engine.h:
src/util/util.h:
