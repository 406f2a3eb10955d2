build/src/cmd/run.o: src/cmd/run.c src/cmd/cmd.h src/cmd/common.h \
 src/engine/engine.h src/output/output.h src/stats/result.h \
 src/stats/hist.h src/runner/runner.h src/runner/data.h src/util/rand.h \
 src/workload/workload.h src/stats/env.h src/util/rundir.h \
 src/util/size.h src/util/util.h src/workload/builtin.h
src/cmd/cmd.h:
src/cmd/common.h:
src/engine/engine.h:
src/output/output.h:
src/stats/result.h:
src/stats/hist.h:
src/runner/runner.h:
src/runner/data.h:
src/util/rand.h:
src/workload/workload.h:
src/stats/env.h:
src/util/rundir.h:
src/util/size.h:
src/util/util.h:
src/workload/builtin.h:
