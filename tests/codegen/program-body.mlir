// RUN: %loops-cuda %s | %fusec-translate --stn-to-cuda | FileCheck %s --check-prefixes=CHECK,CUDA
// RUN: %loops-cpp %s | %fusec-translate --stn-to-cpp | FileCheck %s --check-prefixes=CHECK,CPP

// The program body runs on the host: scalar arithmetic, scf.if with results,
// stn.image through a host copy of its table (cached per range), buffers
// allocated once at setup, kernel launches in order, and stn.exchange calling
// the registered callback. scf.if inside a kernel becomes an if statement.
// The body is one static function taking the instance: P_run calls it on the
// caller's fields (timed when timers are on), P_run_and_verify on copies of
// the outputs, which it then compares with the caller's. On CPUs every thread
// of one OpenMP parallel region runs the body (fusec::run_on_team), and what
// must happen once (stn.image with its cache, the exchange callback) runs on
// the caller's thread, which hands its result to all (fusec::on_one_thread).

stn.connectivity @C2E2CO : Cell -> Cell [4] skip
stn.connectivity @E2C : Edge -> Cell [2]

// The handle's type holds everything of one instance; the file has no other state.
// CHECK-NOT: static {{[a-z_:]+}} {{[a-z_]+}};
// CHECK-LABEL: struct smooth_handle {
// CUDA-NEXT: cudaStream_t stream = nullptr;
// CPP-NEXT: void *stream = nullptr;
// CHECK-NEXT: fusec::Extents extents;
// CHECK-NEXT: fusec::ExchangeHandler exchange;
// CHECK-NEXT: fusec::VerificationHandler verification;
// CHECK-NEXT: fusec::ProgramTimers<3> timers{"smooth", {{[{][{]}}"lap", "copy", "limit"}}};
// CUDA-NEXT: fusec::DeviceTable C2E2CO;
// CUDA-NEXT: fusec::DeviceTable E2C;
// CUDA-NEXT: fusec::HostTable C2E2CO_host;
// CUDA-NEXT: fusec::DeviceArray<double> tmp;
// CUDA-NEXT: fusec::DeviceArray<float> limiter;
// The C++ backend's tables are on the host already: stn.image shares them.
// CPP-NEXT: fusec::HostTable C2E2CO;
// CPP-NEXT: fusec::HostTable E2C;
// CPP-NEXT: fusec::HostArray<double> tmp;
// CPP-NEXT: fusec::HostArray<float> limiter;
// Where P_run_and_verify computes each output (allocated by its first call).
// CHECK-NEXT: // theta as computed by smooth_run_and_verify.
// CUDA-NEXT: fusec::DeviceArray<double> theta_reference;
// CPP-NEXT: fusec::HostArray<double> theta_reference;
// CHECK-NEXT: // geofac as computed by smooth_run_and_verify.
// CUDA-NEXT: fusec::DeviceArray<double> geofac_reference;
// CPP-NEXT: fusec::HostArray<double> geofac_reference;
// CHECK-NEXT: };

// scf.if in a kernel: results are assigned in both branches; a branch that
// only writes has no else.
// CHECK-LABEL: lap(
// The level test does not depend on the point: on CPUs it leaves the point loop.
// CPP: for (int32_t k = k_begin; k < k_end; ++k) {
// CPP-NEXT: const bool [[LEVEL0:t[0-9]+]] = k == 0;
// CPP-NEXT: #pragma omp simd
// CPP-NEXT: for (int32_t h = h_begin; h < h_end; ++h) {
// CUDA: for (int32_t h = h_begin; h < h_end; ++h) {
// CUDA-NEXT: for (int32_t k = k_begin; k < k_end; ++k) {
// CHECK-NEXT: const double theta_1 = theta[h + k * cell_ld];
// CHECK-NEXT: double [[VALUE:t[0-9]+]];
// CHECK-NEXT: if (top) {
// CHECK-NEXT: [[VALUE]] = theta_1;
// CHECK-NEXT: } else {
// CHECK-NEXT: double sum_c2e2co = 0.0;
// CHECK: [[VALUE]] = sum_c2e2co;
// CHECK-NEXT: }
// CUDA-NEXT: const bool [[LEVEL0:t[0-9]+]] = k == 0;
// CHECK-NEXT: if ([[LEVEL0]]) {
// CHECK-NEXT: tmp[h + k * cell_ld] = [[VALUE]];
// CHECK-NEXT: }
// CHECK-NEXT: const double [[TWICE:t[0-9]+]] = [[VALUE]] * 2.0;
// CHECK-NEXT: tmp[h + k * cell_ld] = [[TWICE]];

// CHECK-LABEL: static int execute_smooth(smooth_handle &instance, double *theta, double *geofac, bool full,
// CHECK-NEXT: bool top, int32_t lo, int32_t hi) {
// CUDA-NEXT: const fusec::HostTable::Image c2e2co_image = instance.C2E2CO_host.image(lo, hi);
// CPP-NEXT: const fusec::HostTable::Image c2e2co_image =
// CPP-NEXT: fusec::on_one_thread([&] { return instance.C2E2CO.image(lo, hi); });
// CHECK-NEXT: if (c2e2co_image.status)
// CHECK-NEXT: return c2e2co_image.status;
// CHECK-NEXT: const int32_t t0 = instance.extents.nlev - 1;
// CHECK-NEXT: int32_t t1;
// CHECK-NEXT: if (full) {
// CHECK-NEXT: if (int rc = launch_lap(instance, c2e2co_image.lo, c2e2co_image.hi, 0, instance.extents.nlev,
// CHECK-NEXT: theta, top, geofac, instance.tmp.data()))
// CHECK-NEXT: return rc;
// CHECK-NEXT: t1 = 0;
// CHECK-NEXT: } else {
// CHECK-NEXT: t1 = t0;
// CHECK-NEXT: }
// CHECK-NEXT: if (int rc = launch_copy(instance, lo, hi, t1, instance.extents.nlev, instance.tmp.data(), theta))
// CHECK-NEXT: return rc;
// CHECK-NEXT: if (int rc = launch_limit(instance, lo, hi, geofac, instance.limiter.data()))
// CHECK-NEXT: return rc;
// CHECK-NEXT: {
// CHECK-NEXT: const fusec_exchange_field exchanged[] = {
// CHECK-NEXT: instance.extents.describe("theta", theta, FUSEC_F64, FUSEC_CELL, fusec::Levels::Full,
// CHECK: instance.extents.describe("limiter", instance.limiter.data(), FUSEC_F32, FUSEC_EDGE,
// CHECK-NEXT: fusec::Levels::Flat, 0),
// CHECK-NEXT: instance.extents.describe("geofac", geofac, FUSEC_F64, FUSEC_CELL, fusec::Levels::Flat, 4),
// CHECK-NEXT: };
// CUDA-NEXT: if (int rc = instance.exchange("smooth", exchanged, 3, instance.stream))
// CPP-NEXT: if (int rc = fusec::on_one_thread(
// CPP-NEXT: [&] { return instance.exchange("smooth", exchanged, 3, instance.stream); }))
// CHECK-NEXT: return rc;
// CHECK-NEXT: }
// CHECK-NEXT: return FUSEC_SUCCESS;
// CHECK-NEXT: }

// Callbacks and timers belong to the instance; a null handle is ignored.
// CHECK-LABEL: extern "C" void smooth_set_exchange_callback(smooth_handle *handle,
// CHECK-NEXT: fusec_exchange_callback callback, void *user_data) {
// CHECK-NEXT: if (handle == nullptr)
// CHECK-NEXT: return;
// CHECK-NEXT: handle->exchange.callback = callback;
// CHECK-NEXT: handle->exchange.user_data = user_data;
// CHECK-LABEL: extern "C" void smooth_enable_timers(smooth_handle *handle, int enabled) {
// CHECK-NEXT: if (handle != nullptr)
// CHECK-NEXT: handle->timers.enabled = enabled != 0;
// CHECK-LABEL: extern "C" int smooth_write_metrics(const smooth_handle *handle, const char *path) {
// CHECK-NEXT: if (handle == nullptr)
// CHECK-NEXT: return FUSEC_ERROR_NOT_SET_UP;
// CUDA-NEXT: fusec::MetricsWriter metrics("fusec-cuda");
// CPP-NEXT: fusec::MetricsWriter metrics("fusec-cpp");
// CHECK-NEXT: handle->timers.report(metrics);
// CHECK-NEXT: return metrics.write(path);

// CHECK-LABEL: extern "C" void smooth_destroy(smooth_handle *handle) {
// CHECK-NEXT: if (handle == nullptr)
// CHECK-NEXT: return;
// CHECK-NEXT: handle->C2E2CO.release();
// CHECK-NEXT: handle->E2C.release();
// CUDA-NEXT: handle->C2E2CO_host.release();
// CHECK-NEXT: handle->tmp.release();
// CHECK-NEXT: handle->limiter.release();
// CHECK-NEXT: handle->theta_reference.release();
// CHECK-NEXT: handle->geofac_reference.release();
// CHECK-NEXT: handle->timers.release();
// CHECK-NEXT: delete handle;
// CHECK-NEXT: }

// Buffers are allocated at creation, never per call; P_create is the tight
// layout. Creation's copies and fills go on the caller's stream, set first; a
// failed creation releases what it made and leaves the handle null.
// CHECK-LABEL: extern "C" int smooth_create_with_layout(const fusec_mesh *mesh, int32_t nlev,
// CHECK-NEXT: const fusec_layout *layout, void *stream,
// CHECK-NEXT: smooth_handle **handle) {
// CHECK-NEXT: if (handle == nullptr)
// CHECK-NEXT: return FUSEC_ERROR_INVALID_ARGUMENT;
// CHECK-NEXT: *handle = nullptr;
// CHECK-NEXT: smooth_handle *instance = new (std::nothrow) smooth_handle;
// CHECK-NEXT: if (instance == nullptr)
// CHECK-NEXT: return FUSEC_ERROR_OUT_OF_MEMORY;
// CUDA-NEXT: instance->stream = static_cast<cudaStream_t>(stream);
// CPP-NEXT: instance->stream = stream;
// CHECK-NEXT: int status = instance->extents.init(mesh, nlev, layout);
// CHECK: instance->C2E2CO.load(mesh, "C2E2CO", FUSEC_CELL, FUSEC_CELL, 4, instance->stream);
// CHECK: status = instance->E2C.load(mesh, "E2C", FUSEC_EDGE, FUSEC_CELL, 2, instance->stream);
// CUDA: instance->C2E2CO_host.load(mesh, "C2E2CO", FUSEC_CELL, FUSEC_CELL, 4, instance->stream);
// CHECK: status = instance->tmp.allocate(instance->extents.elements(FUSEC_CELL, fusec::Levels::Full, 0),
// CHECK-NEXT: instance->stream);
// CHECK: status = instance->limiter.allocate(
// CHECK-NEXT: instance->extents.elements(FUSEC_EDGE, fusec::Levels::Flat, 0), instance->stream);
// CHECK: if (status != FUSEC_SUCCESS) {
// CHECK-NEXT: smooth_destroy(instance);
// CHECK-NEXT: return status;
// CHECK-NEXT: }
// CHECK-NEXT: *handle = instance;
// CHECK-NEXT: return FUSEC_SUCCESS;

// CHECK-LABEL: extern "C" int smooth_create(const fusec_mesh *mesh, int32_t nlev, void *stream,
// CHECK-NEXT: smooth_handle **handle) {
// CHECK-NEXT: return smooth_create_with_layout(mesh, nlev, nullptr, stream, handle);

// CHECK-LABEL: extern "C" int smooth_run(smooth_handle *handle, double *theta, double *geofac, bool full, bool top,
// CHECK: if (handle == nullptr)
// CHECK-NEXT: return FUSEC_ERROR_NOT_SET_UP;
// CHECK-NEXT: fusec::TimedRun<3> timed(handle->timers, handle->stream);
// CUDA-NEXT: return execute_smooth(*handle, theta, geofac, full, top, lo, hi);
// CPP-NEXT: return fusec::run_on_team(
// CPP-NEXT: [&] { return execute_smooth(*handle, theta, geofac, full, top, lo, hi); });

// CHECK-LABEL: extern "C" int smooth_run_and_verify(smooth_handle *handle, const double *theta,
// CHECK-NEXT: const double *geofac, bool full, bool top, int32_t lo,
// CHECK-NEXT: int32_t hi, const double *theta_before,
// CHECK-NEXT: const double *geofac_before,
// CHECK-NEXT: const fusec_tolerances *tolerances) {
// CHECK-NEXT: if (handle == nullptr)
// CHECK-NEXT: return FUSEC_ERROR_NOT_SET_UP;
// CHECK-NEXT: if (int rc = handle->theta_reference.assign(
// CHECK-NEXT: theta_before, handle->extents.elements(FUSEC_CELL, fusec::Levels::Full, 0),
// CHECK-NEXT: handle->stream))
// CHECK-NEXT: return rc;
// CHECK-NEXT: if (int rc = handle->geofac_reference.assign(
// CHECK-NEXT: geofac_before, handle->extents.elements(FUSEC_CELL, fusec::Levels::Flat, 4),
// CHECK-NEXT: handle->stream))
// CHECK-NEXT: return rc;
// CUDA-NEXT: if (int rc = execute_smooth(*handle, handle->theta_reference.data(),
// CUDA-NEXT: handle->geofac_reference.data(), full, top, lo, hi))
// CPP-NEXT: if (int rc = fusec::run_on_team([&] {
// CPP-NEXT: return execute_smooth(*handle, handle->theta_reference.data(),
// CPP-NEXT: handle->geofac_reference.data(), full, top, lo, hi);
// CPP-NEXT: }))
// CHECK-NEXT: return rc;
// CHECK-NEXT: fusec::Verifier verifier("smooth", handle->verification, handle->extents, handle->stream,
// CHECK-NEXT: tolerances);
// CHECK-NEXT: verifier.check("theta", theta, handle->theta_reference.data(), FUSEC_CELL, fusec::Levels::Full,
// CHECK-NEXT: 0);
// CHECK-NEXT: verifier.check("geofac", geofac, handle->geofac_reference.data(), FUSEC_CELL, fusec::Levels::Flat,
// CHECK-NEXT: 4);
// CHECK-NEXT: return verifier.status();

stn.program @smooth(%theta: !stn.field<Cell x K x f64> {stn.intent = 2 : i32, stn.name = "theta"},
    %geofac: !stn.field<Cell x C2E2CO[4] x f64> {stn.intent = 2 : i32, stn.name = "geofac"},
    %full: i1 {stn.name = "full"}, %top: i1 {stn.name = "top"},
    %lo: i32 {stn.name = "lo"}, %hi: i32 {stn.name = "hi"}) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %n = stn.nlev : i32
  %tmp = stn.alloc {name = "tmp"} : !stn.field<Cell x K x f64>
  %limiter = stn.alloc {name = "limiter"} : !stn.field<Edge x f32>
  %ilo, %ihi = stn.image %lo, %hi through @C2E2CO
  %last = arith.subi %n, %c1 : i32
  %start = scf.if %full -> i32 {
    stn.kernel "lap" on Cell[%ilo : %ihi] K[%c0 : %n] {
    ^bb0(%c: !stn.point<Cell>):
      %t = stn.load %theta[%c, k] : !stn.field<Cell x K x f64>
      %v = scf.if %top -> f64 {
        scf.yield %t : f64
      } else {
        %s = stn.reduce sum over @C2E2CO at %c : !stn.point<Cell> -> f64 {
        ^bb0(%j: index, %n2: !stn.point<Cell>):
          %g = stn.load %geofac[%c, nbr %j] : !stn.field<Cell x C2E2CO[4] x f64>
          %x = stn.load %theta[%n2, k] : !stn.field<Cell x K x f64>
          %p = arith.mulf %g, %x : f64
          stn.yield %p : f64
        }
        scf.yield %s : f64
      }
      %lvl = stn.level
      %zero = arith.constant 0 : i32
      %first = arith.cmpi eq, %lvl, %zero : i32
      scf.if %first {
        stn.write %v to %tmp at %c : !stn.point<Cell> : f64, !stn.field<Cell x K x f64>
      }
      %two = arith.constant 2.0 : f64
      %d = arith.mulf %v, %two : f64
      stn.write %d to %tmp at %c : !stn.point<Cell> : f64, !stn.field<Cell x K x f64>
    }
    scf.yield %c0 : i32
  } else {
    scf.yield %last : i32
  }
  stn.kernel "copy" on Cell[%lo : %hi] K[%start : %n] {
  ^bb0(%c: !stn.point<Cell>):
    %t = stn.load %tmp[%c, k] : !stn.field<Cell x K x f64>
    stn.write %t to %theta at %c : !stn.point<Cell> : f64, !stn.field<Cell x K x f64>
  }
  stn.kernel "limit" on Edge[%lo : %hi] {
  ^bb0(%e: !stn.point<Edge>):
    %s0 = arith.constant 0 : index
    %c = stn.neighbor %e through @E2C [%s0] : !stn.point<Edge> -> !stn.point<Cell>
    %g = stn.load %geofac[%c, nbr %s0] : !stn.field<Cell x C2E2CO[4] x f64>
    %f = arith.truncf %g : f64 to f32
    stn.write %f to %limiter at %e : !stn.point<Edge> : f32, !stn.field<Edge x f32>
  }
  stn.exchange %theta, %limiter, %geofac : !stn.field<Cell x K x f64>, !stn.field<Edge x f32>, !stn.field<Cell x C2E2CO[4] x f64>
  stn.return
}
