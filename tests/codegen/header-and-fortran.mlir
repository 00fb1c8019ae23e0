// RUN: %fusec-translate --stn-to-header %s | FileCheck %s --check-prefix=HEADER
// RUN: %fusec-translate --stn-to-fortran %s | FileCheck %s --check-prefix=FORTRAN

// One C interface, declared for C99/C++ and for Fortran: every function of an
// instance takes its opaque handle first (P_create writes it); fields are
// pointers (`in` ones to const; all of them in P_run_and_verify, which adds a
// const `_before` copy per output and the tolerances) or arrays, scalars are
// passed by value, names that are C keywords are renamed, and Fortran names
// longer than 63 characters are shortened while bind(c) keeps the C name. The
// Fortran module adds a derived type per program holding the handle, whose
// `run` is the ICON-style wrap_run_* wrapper, generic over a second one for
// arrays in ICON's blocked layout (one more dimension, nblks, per horizontal
// field). It has no preprocessor line.

module @diffusion {
  // HEADER-LABEL: #ifndef FUSEC_DIFFUSION_H
  // HEADER: #include "fusec/kernel_support.h"
  // HEADER: #include <stdbool.h>
  // HEADER: #include <stdint.h>
  // HEADER: #ifdef __cplusplus
  // HEADER-NEXT: extern "C" {
  // HEADER-NEXT: #endif

  // HEADER: /* apply_to_theta(
  // HEADER-NEXT:  *   theta: Cell x K x f64, inout
  // HEADER-NEXT:  *   mask: Cell x K x i1, in
  // HEADER-NEXT:  *   kh: Edge x K x f32, out
  // HEADER-NEXT:  *   zd_vertoffset: Cell x C2E2C[3] x K x i32, in
  // HEADER-NEXT:  *   int: f64
  // HEADER-NEXT:  *   arg5: i32
  // HEADER-NEXT:  *   status: i1
  // HEADER-NEXT:  * ) */
  // HEADER-NEXT: typedef struct apply_to_theta_handle apply_to_theta_handle;
  // HEADER-NEXT: int apply_to_theta_create(const fusec_mesh *mesh, int32_t nlev, void *stream,
  // HEADER-NEXT: apply_to_theta_handle **handle);
  // HEADER-NEXT: int apply_to_theta_create_with_layout(const fusec_mesh *mesh, int32_t nlev,
  // HEADER-NEXT: const fusec_layout *layout, void *stream,
  // HEADER-NEXT: apply_to_theta_handle **handle);
  // HEADER-NEXT: int apply_to_theta_run(apply_to_theta_handle *handle, double *theta, const bool *mask, float *kh,
  // HEADER-NEXT: const int32_t *zd_vertoffset, double int_1, int32_t arg5, bool status);
  // HEADER-NEXT: int apply_to_theta_run_and_verify(apply_to_theta_handle *handle, const double *theta,
  // HEADER-NEXT: const bool *mask, const float *kh, const int32_t *zd_vertoffset,
  // HEADER-NEXT: double int_1, int32_t arg5, bool status,
  // HEADER-NEXT: const double *theta_before, const float *kh_before,
  // HEADER-NEXT: const fusec_tolerances *tolerances);
  // HEADER-NEXT: void apply_to_theta_destroy(apply_to_theta_handle *handle);
  // HEADER-NEXT: const char *apply_to_theta_error_message(int status);
  // HEADER-NEXT: void apply_to_theta_set_exchange_callback(apply_to_theta_handle *handle,
  // HEADER-NEXT: fusec_exchange_callback callback, void *user_data);
  // HEADER-NEXT: void apply_to_theta_set_verification_callback(apply_to_theta_handle *handle,
  // HEADER-NEXT: fusec_verification_callback callback,
  // HEADER-NEXT: void *user_data);
  // Timers belong to an instance too.
  // HEADER-NEXT: void apply_to_theta_enable_timers(apply_to_theta_handle *handle, int enabled);
  // HEADER-NEXT: int apply_to_theta_write_metrics(const apply_to_theta_handle *handle, const char *path);

  // HEADER: int calculate_enhanced_diffusion_coefficients_for_grid_point_cold_pools_run(
  // HEADER-NEXT: calculate_enhanced_diffusion_coefficients_for_grid_point_cold_pools_handle *handle);
  // HEADER: int calculate_enhanced_diffusion_coefficients_for_grid_point_cold_pools_run_and_verify(
  // HEADER-NEXT: calculate_enhanced_diffusion_coefficients_for_grid_point_cold_pools_handle *handle,
  // HEADER-NEXT: const fusec_tolerances *tolerances);

  // Parameters never take the names of P_run's own locals (`handle` included),
  // and copies never take a parameter's name.
  // HEADER: int locals_run(locals_handle *handle, int32_t rc_1, double *exchanged_1, double tolerances_1,
  // HEADER-NEXT: double fusec_tolerances_1, double handle_1, double self);
  // HEADER: int locals_run_and_verify(locals_handle *handle, int32_t rc_1, const double *exchanged_1,
  // HEADER-NEXT: double tolerances_1, double fusec_tolerances_1, double handle_1,
  // HEADER-NEXT: double self, const double *exchanged_1_before,
  // HEADER-NEXT: const fusec_tolerances *tolerances);

  // HEADER: #ifdef __cplusplus
  // HEADER-NEXT: } /* extern "C" */
  // HEADER-NEXT: #endif
  // HEADER: #endif /* FUSEC_DIFFUSION_H */

  // FORTRAN-NOT: #
  // FORTRAN-LABEL: module fusec_diffusion
  // FORTRAN-NEXT:   use, intrinsic :: iso_c_binding, only: c_bool, c_char, c_double, c_f_pointer, c_float, c_funptr, &
  // FORTRAN-NEXT:       c_int, c_int32_t, c_int64_t, c_null_char, c_null_ptr, c_ptr, c_size_t
  // FORTRAN-NEXT:   use, intrinsic :: iso_fortran_env, only: error_unit
  // FORTRAN-NEXT:   implicit none
  // FORTRAN-NEXT:   private
  // One public statement per program (diffusion.stn has too many names for one).
  // FORTRAN-NEXT:   public :: apply_to_theta_create, apply_to_theta_create_with_layout, apply_to_theta_run, &
  // FORTRAN-NEXT:       apply_to_theta_run_and_verify, apply_to_theta_destroy, apply_to_theta_error_message, &
  // FORTRAN-NEXT:       apply_to_theta_set_exchange_callback, apply_to_theta_set_verification_callback, &
  // FORTRAN-NEXT:       apply_to_theta_enable_timers, apply_to_theta_write_metrics, apply_to_theta_t, &
  // FORTRAN-NEXT:       wrap_run_apply_to_theta, wrap_run_blocked_apply_to_theta
  // FORTRAN-NEXT:   public :: calculate_enhanced_diffusion_coefficients_for_grid_point_create, &

  // The derived type: the handle and the procedures bound to it.
  // FORTRAN:        type :: apply_to_theta_t
  // FORTRAN-NEXT:     type(c_ptr) :: handle = c_null_ptr
  // FORTRAN-NEXT:   contains
  // FORTRAN-NEXT:     procedure :: create => apply_to_theta_t_create
  // FORTRAN-NEXT:     procedure :: create_with_layout => apply_to_theta_t_create_with_layout
  // FORTRAN-NEXT:     procedure :: run_flat => wrap_run_apply_to_theta
  // FORTRAN-NEXT:     procedure :: destroy => apply_to_theta_t_destroy
  // FORTRAN-NEXT:     procedure :: set_exchange_callback => apply_to_theta_t_set_exchange_callback
  // FORTRAN-NEXT:     procedure :: set_verification_callback => apply_to_theta_t_set_verification_callback
  // FORTRAN-NEXT:     procedure :: enable_timers => apply_to_theta_t_enable_timers
  // FORTRAN-NEXT:     procedure :: write_metrics => apply_to_theta_t_write_metrics
  // FORTRAN-NEXT:     procedure :: run_blocked => wrap_run_blocked_apply_to_theta
  // FORTRAN-NEXT:     generic :: run => run_flat, run_blocked
  // FORTRAN-NEXT:   end type apply_to_theta_t
  // A long binding continues on the next line.
  // FORTRAN: type :: calculate_enhanced_diffusion_coefficients_for_grid_point_cold_t
  // FORTRAN: procedure :: create_with_layout =>
  // FORTRAN-NEXT: calculate_enhanced_diffusion_coefficients__t_create_with_layout

  // FORTRAN:    function apply_to_theta_create(mesh, nlev, stream, handle) result(status) &
  // FORTRAN-NEXT:        bind(c, name="apply_to_theta_create")
  // FORTRAN-NEXT:      import :: c_int, c_int32_t, c_ptr
  // FORTRAN-NEXT:      type(c_ptr), value :: mesh
  // FORTRAN-NEXT:      integer(c_int32_t), value :: nlev
  // FORTRAN-NEXT:      type(c_ptr), value :: stream
  // FORTRAN-NEXT:      type(c_ptr), intent(out) :: handle
  // FORTRAN-NEXT:      integer(c_int) :: status
  // FORTRAN-NEXT:    end function apply_to_theta_create
  // FORTRAN-NEXT:    function apply_to_theta_create_with_layout(mesh, nlev, layout, stream, handle) result(status) &
  // FORTRAN-NEXT:        bind(c, name="apply_to_theta_create_with_layout")
  // FORTRAN-NEXT:      import :: c_int, c_int32_t, c_int64_t, c_ptr
  // FORTRAN-NEXT:      type(c_ptr), value :: mesh
  // FORTRAN-NEXT:      integer(c_int32_t), value :: nlev
  // FORTRAN-NEXT:      integer(c_int64_t), intent(in) :: layout(4)
  // FORTRAN-NEXT:      type(c_ptr), value :: stream
  // FORTRAN-NEXT:      type(c_ptr), intent(out) :: handle
  // FORTRAN-NEXT:      integer(c_int) :: status
  // FORTRAN-NEXT:    end function apply_to_theta_create_with_layout
  // FORTRAN-NEXT:    function apply_to_theta_run(handle, theta, mask, kh, zd_vertoffset, int_1, arg5, status_1) &
  // FORTRAN-NEXT:        result(status) bind(c, name="apply_to_theta_run")
  // FORTRAN-NEXT:      import :: c_bool, c_double, c_float, c_int, c_int32_t, c_ptr
  // FORTRAN-NEXT:      type(c_ptr), value :: handle
  // FORTRAN-NEXT:      real(c_double), intent(inout), target :: theta(*)
  // FORTRAN-NEXT:      logical(c_bool), intent(in), target :: mask(*)
  // FORTRAN-NEXT:      real(c_float), intent(inout), target :: kh(*)
  // FORTRAN-NEXT:      integer(c_int32_t), intent(in), target :: zd_vertoffset(*)
  // FORTRAN-NEXT:      real(c_double), value :: int_1
  // FORTRAN-NEXT:      integer(c_int32_t), value :: arg5
  // FORTRAN-NEXT:      logical(c_bool), value :: status_1
  // FORTRAN-NEXT:      integer(c_int) :: status
  // FORTRAN-NEXT:    end function apply_to_theta_run
  // FORTRAN-NEXT:    function apply_to_theta_run_and_verify(handle, theta, mask, kh, zd_vertoffset, int_1, arg5, &
  // FORTRAN-NEXT:        status_1, theta_before, kh_before, tolerances) result(status) &
  // FORTRAN-NEXT:        bind(c, name="apply_to_theta_run_and_verify")
  // FORTRAN-NEXT:      import :: c_bool, c_double, c_float, c_int, c_int32_t, c_ptr
  // FORTRAN-NEXT:      type(c_ptr), value :: handle
  // FORTRAN-NEXT:      real(c_double), intent(in), target :: theta(*)
  // FORTRAN-NEXT:      logical(c_bool), intent(in), target :: mask(*)
  // FORTRAN-NEXT:      real(c_float), intent(in), target :: kh(*)
  // FORTRAN-NEXT:      integer(c_int32_t), intent(in), target :: zd_vertoffset(*)
  // FORTRAN-NEXT:      real(c_double), value :: int_1
  // FORTRAN-NEXT:      integer(c_int32_t), value :: arg5
  // FORTRAN-NEXT:      logical(c_bool), value :: status_1
  // FORTRAN-NEXT:      real(c_double), intent(in), target :: theta_before(*)
  // FORTRAN-NEXT:      real(c_float), intent(in), target :: kh_before(*)
  // FORTRAN-NEXT:      real(c_double), intent(in) :: tolerances(2, *)
  // FORTRAN-NEXT:      integer(c_int) :: status
  // FORTRAN-NEXT:    end function apply_to_theta_run_and_verify
  // FORTRAN-NEXT:    subroutine apply_to_theta_destroy(handle) bind(c, name="apply_to_theta_destroy")
  // FORTRAN-NEXT:      import :: c_ptr
  // FORTRAN-NEXT:      type(c_ptr), value :: handle
  // FORTRAN-NEXT:    end subroutine apply_to_theta_destroy
  // FORTRAN-NEXT:    function apply_to_theta_error_message(status) result(message) &
  // FORTRAN-NEXT:        bind(c, name="apply_to_theta_error_message")
  // FORTRAN-NEXT:      import :: c_int, c_ptr
  // FORTRAN-NEXT:      integer(c_int), value :: status
  // FORTRAN-NEXT:      type(c_ptr) :: message
  // FORTRAN-NEXT:    end function apply_to_theta_error_message
  // FORTRAN-NEXT:    subroutine apply_to_theta_set_exchange_callback(handle, callback, user_data) &
  // FORTRAN-NEXT:        bind(c, name="apply_to_theta_set_exchange_callback")
  // FORTRAN-NEXT:      import :: c_funptr, c_ptr
  // FORTRAN-NEXT:      type(c_ptr), value :: handle
  // FORTRAN-NEXT:      type(c_funptr), value :: callback
  // FORTRAN-NEXT:      type(c_ptr), value :: user_data
  // FORTRAN-NEXT:    end subroutine apply_to_theta_set_exchange_callback
  // FORTRAN-NEXT:    subroutine apply_to_theta_set_verification_callback(handle, callback, user_data) &
  // FORTRAN-NEXT:        bind(c, name="apply_to_theta_set_verification_callback")
  // FORTRAN-NEXT:      import :: c_funptr, c_ptr
  // FORTRAN-NEXT:      type(c_ptr), value :: handle
  // FORTRAN-NEXT:      type(c_funptr), value :: callback
  // FORTRAN-NEXT:      type(c_ptr), value :: user_data
  // FORTRAN-NEXT:    end subroutine apply_to_theta_set_verification_callback
  // FORTRAN-NEXT:    subroutine apply_to_theta_enable_timers(handle, enabled) &
  // FORTRAN-NEXT:        bind(c, name="apply_to_theta_enable_timers")
  // FORTRAN-NEXT:      import :: c_int, c_ptr
  // FORTRAN-NEXT:      type(c_ptr), value :: handle
  // FORTRAN-NEXT:      integer(c_int), value :: enabled
  // FORTRAN-NEXT:    end subroutine apply_to_theta_enable_timers
  // FORTRAN-NEXT:    function apply_to_theta_write_metrics(handle, path) result(status) &
  // FORTRAN-NEXT:        bind(c, name="apply_to_theta_write_metrics")
  // FORTRAN-NEXT:      import :: c_char, c_int, c_ptr
  // FORTRAN-NEXT:      type(c_ptr), value :: handle
  // FORTRAN-NEXT:      character(kind=c_char), intent(in) :: path(*)

  stn.connectivity @C2E2C : Cell -> Cell [3] skip
  stn.program @apply_to_theta(%theta: !stn.field<Cell x K x f64> {stn.intent = 2 : i32, stn.name = "theta"},
      %mask: !stn.field<Cell x K x i1> {stn.name = "mask"},
      %kh: !stn.field<Edge x K x f32> {stn.intent = 1 : i32, stn.name = "kh"},
      %off: !stn.field<Cell x C2E2C[3] x K x i32> {stn.name = "zd_vertoffset"},
      %keyword: f64 {stn.name = "int"}, %unnamed: i32, %status: i1 {stn.name = "status"}) {
    stn.return
  }

  // Longer than 63 characters: the Fortran name loses the end of the program's
  // name but keeps its suffix (or the wrapper's prefix); bind(c) keeps the C
  // name, continued inside the string where it does not fit on a line.
  // FORTRAN: function calculate_enhanced_diffusion_coefficients_for_grid_point_create(mesh, nlev, stream, &
  // FORTRAN-NEXT: handle) result(status) &
  // FORTRAN-NEXT: bind(c, name="calculate_enhanced_diffusion_coefficients_for_grid_point_cold_pools_create")
  // FORTRAN: function calculate_enhanced_diffusion_coefficients_for_grid_point_co_run(handle) &
  // FORTRAN-NEXT: result(status) &
  // FORTRAN-NEXT: bind(c, name="calculate_enhanced_diffusion_coefficients_for_grid_point_cold_pools_run")
  // FORTRAN: subroutine calculate_enhanced_diffusion_coefficients_for_grid_poin_destroy(handle) &
  // FORTRAN-NEXT: bind(c, name="calculate_enhanced_diffusion_coefficients_for_grid_point_cold_pools_destroy")
  // FORTRAN: function calculate_enhanced_diffusion_coefficients_for_gri_error_message(status) &
  // FORTRAN-NEXT: result(message) &
  // FORTRAN-NEXT: bind(c, name="calculate_enhanced_diffusion_coefficients_for_grid_point_cold_pools_error_mes&
  // FORTRAN-NEXT: &sage")
  // FORTRAN: subroutine calculate_enhanced_diffusion_coefficients_set_exchange_callback(handle, callback, &

  // FORTRAN-LABEL: {{^}}contains

  // create destroys the instance made before, then makes one; `stream` is
  // optional, and without `status` errors stop the program.
  // FORTRAN:       subroutine apply_to_theta_t_create(self, mesh, nlev, stream, status)
  // FORTRAN-NEXT:    class(apply_to_theta_t), intent(inout) :: self
  // FORTRAN-NEXT:    type(c_ptr), intent(in) :: mesh
  // FORTRAN-NEXT:    integer(c_int32_t), intent(in) :: nlev
  // FORTRAN-NEXT:    type(c_ptr), intent(in), optional :: stream
  // FORTRAN-NEXT:    integer(c_int), intent(out), optional :: status
  // FORTRAN-NEXT:    integer(c_int) :: rc
  // FORTRAN-NEXT:    call self%destroy()
  // FORTRAN-NEXT:    if (present(stream)) then
  // FORTRAN-NEXT:      rc = apply_to_theta_create(mesh, nlev, stream, self%handle)
  // FORTRAN-NEXT:    else
  // FORTRAN-NEXT:      rc = apply_to_theta_create(mesh, nlev, c_null_ptr, self%handle)
  // FORTRAN-NEXT:    end if
  // FORTRAN-NEXT:    call finish_call('apply_to_theta_t%create', rc, apply_to_theta_error_message(rc), status)
  // FORTRAN-NEXT:  end subroutine apply_to_theta_t_create
  // FORTRAN:       subroutine apply_to_theta_t_create_with_layout(self, mesh, nlev, layout, stream, status)
  // The layout: three leading dimensions (flat), or those and nproma (blocked).
  // FORTRAN:         integer(c_int64_t), intent(in) :: layout(:)
  // FORTRAN:         integer(c_int64_t) :: full_layout(4)
  // FORTRAN:         if (size(layout) < 3 .or. size(layout) > 4) then
  // FORTRAN-NEXT:      rc = 2
  // FORTRAN:           return
  // FORTRAN:         full_layout = 0
  // FORTRAN-NEXT:    full_layout(1:size(layout)) = layout
  // FORTRAN:         rc = apply_to_theta_create_with_layout(mesh, nlev, full_layout, stream, self%handle)
  // FORTRAN:       subroutine apply_to_theta_t_destroy(self)
  // FORTRAN-NEXT:    class(apply_to_theta_t), intent(inout) :: self
  // FORTRAN-NEXT:    call apply_to_theta_destroy(self%handle)
  // FORTRAN-NEXT:    self%handle = c_null_ptr
  // FORTRAN-NEXT:  end subroutine apply_to_theta_t_destroy

  // A wrapper takes the instance, fields as contiguous assumed-shape arrays
  // (first extent nproma), flags as default logicals, and optional `_before`
  // copies and tolerances per output; it verifies when given every copy (a
  // run-time choice), and passes device addresses under OpenACC.
  // FORTRAN:  subroutine wrap_run_apply_to_theta(self, theta, mask, kh, zd_vertoffset, int_1, arg5, status_1, &
  // FORTRAN-NEXT:      theta_before, kh_before, theta_rel_tol, theta_abs_tol, kh_rel_tol, kh_abs_tol, status)
  // FORTRAN-NEXT:    class(apply_to_theta_t), intent(in) :: self
  // FORTRAN-NEXT:    real(c_double), intent(inout), target, contiguous :: theta(:, :)
  // FORTRAN-NEXT:    logical(c_bool), intent(in), target, contiguous :: mask(:, :)
  // FORTRAN-NEXT:    real(c_float), intent(inout), target, contiguous :: kh(:, :)
  // FORTRAN-NEXT:    integer(c_int32_t), intent(in), target, contiguous :: zd_vertoffset(:, :, :)
  // FORTRAN-NEXT:    real(c_double), intent(in) :: int_1
  // FORTRAN-NEXT:    integer(c_int32_t), intent(in) :: arg5
  // FORTRAN-NEXT:    logical, intent(in) :: status_1
  // FORTRAN-NEXT:    real(c_double), intent(in), target, contiguous, optional :: theta_before(:, :)
  // FORTRAN-NEXT:    real(c_float), intent(in), target, contiguous, optional :: kh_before(:, :)
  // FORTRAN-NEXT:    real(c_double), intent(in), optional :: theta_rel_tol, theta_abs_tol
  // FORTRAN-NEXT:    real(c_double), intent(in), optional :: kh_rel_tol, kh_abs_tol
  // FORTRAN-NEXT:    integer(c_int), intent(out), optional :: status
  // FORTRAN-NEXT:    integer(c_int) :: rc
  // FORTRAN-NEXT:    real(c_double) :: tolerances(2, 2)
  // FORTRAN-NEXT:    if (present(theta_before) .and. present(kh_before)) then
  // FORTRAN-NEXT:      tolerances = -1.0_c_double ! the defaults of the element type
  // FORTRAN-NEXT:      if (present(theta_rel_tol)) tolerances(1, 1) = theta_rel_tol
  // FORTRAN-NEXT:      if (present(theta_abs_tol)) tolerances(2, 1) = theta_abs_tol
  // FORTRAN-NEXT:      if (present(kh_rel_tol)) tolerances(1, 2) = kh_rel_tol
  // FORTRAN-NEXT:      if (present(kh_abs_tol)) tolerances(2, 2) = kh_abs_tol
  // FORTRAN-NEXT:      !$acc host_data use_device(theta, mask, kh, zd_vertoffset, theta_before, kh_before)
  // FORTRAN-NEXT:      rc = apply_to_theta_run_and_verify(self%handle, theta, mask, kh, zd_vertoffset, int_1, arg5, &
  // FORTRAN-NEXT:          logical(status_1, c_bool), theta_before, kh_before, tolerances)
  // FORTRAN-NEXT:      !$acc end host_data
  // FORTRAN-NEXT:    else if (present(theta_before) .or. present(kh_before)) then
  // FORTRAN-NEXT:      rc = 2 ! FUSEC_ERROR_INVALID_ARGUMENT: some copies are missing
  // FORTRAN-NEXT:    else
  // FORTRAN-NEXT:      !$acc host_data use_device(theta, mask, kh, zd_vertoffset)
  // FORTRAN-NEXT:      rc = apply_to_theta_run(self%handle, theta, mask, kh, zd_vertoffset, int_1, arg5, &
  // FORTRAN-NEXT:          logical(status_1, c_bool))
  // FORTRAN-NEXT:      !$acc end host_data
  // FORTRAN-NEXT:    end if
  // FORTRAN-NEXT:    call finish_call('wrap_run_apply_to_theta', rc, apply_to_theta_error_message(rc), status)
  // FORTRAN-NEXT:  end subroutine wrap_run_apply_to_theta

  // The same for ICON's blocked arrays f(nproma, [n,] [nlev,] nblks): the
  // horizontal fields and their copies have one more dimension, the C call is
  // the same.
  // FORTRAN:  subroutine wrap_run_blocked_apply_to_theta(self, theta, mask, kh, zd_vertoffset, int_1, arg5, &
  // FORTRAN-NEXT:      status_1, theta_before, kh_before, theta_rel_tol, theta_abs_tol, kh_rel_tol, kh_abs_tol, &
  // FORTRAN-NEXT:      status)
  // FORTRAN-NEXT:    class(apply_to_theta_t), intent(in) :: self
  // FORTRAN-NEXT:    real(c_double), intent(inout), target, contiguous :: theta(:, :, :)
  // FORTRAN-NEXT:    logical(c_bool), intent(in), target, contiguous :: mask(:, :, :)
  // FORTRAN-NEXT:    real(c_float), intent(inout), target, contiguous :: kh(:, :, :)
  // FORTRAN-NEXT:    integer(c_int32_t), intent(in), target, contiguous :: zd_vertoffset(:, :, :, :)
  // FORTRAN:         real(c_double), intent(in), target, contiguous, optional :: theta_before(:, :, :)
  // FORTRAN:         rc = apply_to_theta_run(self%handle, theta, mask, kh, zd_vertoffset, int_1, arg5, &
  // FORTRAN:         call finish_call('wrap_run_blocked_apply_to_theta', rc, apply_to_theta_error_message(rc), &
  // FORTRAN-NEXT:        status)
  // FORTRAN-NEXT:  end subroutine wrap_run_blocked_apply_to_theta

  // Callbacks and timers of the instance.
  // FORTRAN:       subroutine apply_to_theta_t_set_exchange_callback(self, callback, user_data)
  // FORTRAN-NEXT:    class(apply_to_theta_t), intent(in) :: self
  // FORTRAN-NEXT:    type(c_funptr), intent(in) :: callback
  // FORTRAN-NEXT:    type(c_ptr), intent(in) :: user_data
  // FORTRAN-NEXT:    call apply_to_theta_set_exchange_callback(self%handle, callback, user_data)
  // FORTRAN:       subroutine apply_to_theta_t_enable_timers(self, enabled)
  // FORTRAN-NEXT:    class(apply_to_theta_t), intent(in) :: self
  // FORTRAN-NEXT:    logical, intent(in) :: enabled
  // FORTRAN-NEXT:    call apply_to_theta_enable_timers(self%handle, merge(1_c_int, 0_c_int, enabled))
  // FORTRAN:       subroutine apply_to_theta_t_write_metrics(self, path, status)
  // FORTRAN:         rc = apply_to_theta_write_metrics(self%handle, path // c_null_char)

  // Without fields or outputs there is nothing to verify or to pass to the device.
  // FORTRAN:  subroutine wrap_run_calculate_enhanced_diffusion_coefficients_for_grid_poi(self, status)
  // FORTRAN-NEXT:    class(calculate_enhanced_diffusion_coefficients_for_grid_point_cold_t), intent(in) :: self
  // FORTRAN-NEXT:    integer(c_int), intent(out), optional :: status
  // FORTRAN-NEXT:    integer(c_int) :: rc
  // FORTRAN-NEXT:    rc = calculate_enhanced_diffusion_coefficients_for_grid_point_co_run(self%handle)
  // FORTRAN-NEXT:    call finish_call('wrap_run_calculate_enhanced_diffusion_coefficients_for_grid_point_cold_pools', &
  // FORTRAN-NEXT:        rc, calculate_enhanced_diffusion_coefficients_for_gri_error_message(rc), status)

  // A parameter named `self` or `handle` is renamed in Fortran.
  // FORTRAN: subroutine wrap_run_locals(self, rc_1, exchanged_1, tolerances_1, fusec_tolerances_1, handle_1, &
  // FORTRAN-NEXT: self_1, exchanged_1_before, exchanged_1_rel_tol, exchanged_1_abs_tol, status)

  // Errors go to the caller's `status`, else stop the program with the message.
  // FORTRAN:  subroutine finish_call(procedure, rc, message, status)
  // FORTRAN:    write (error_unit, '(*(a))') 'fusec: ', procedure, ': ', text
  // FORTRAN-NEXT:    error stop 1
  // FORTRAN:  end module fusec_diffusion
  stn.program @calculate_enhanced_diffusion_coefficients_for_grid_point_cold_pools() {
    stn.return
  }

  stn.program @locals(%rc: i32 {stn.name = "rc"},
      %exchanged: !stn.field<Cell x f64> {stn.intent = 2 : i32, stn.name = "exchanged"},
      %tolerances: f64 {stn.name = "tolerances"}, %type: f64 {stn.name = "fusec_tolerances"},
      %handle: f64 {stn.name = "handle"}, %self: f64 {stn.name = "self"}) {
    stn.return
  }
}
