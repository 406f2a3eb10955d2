build/src/cmd/common.o: src/cmd/common.c src/cmd/common.h \
 src/engine/engine.h src/util/util.h
src/cmd/common.h:
src/engine/engine.h:
src/util/util.h:
