// RUN: %fusec-translate --stn-to-header %s | FileCheck %s --check-prefix=HEADER
// RUN: %fusec-translate --stn-to-fortran %s | FileCheck %s --check-prefix=FORTRAN

// One C interface, declared for C99/C++ and for Fortran: fields are pointers
// (`in` ones to const; all of them in P_run_and_verify, which adds a const
// `_before` copy per output and the tolerances) or arrays, scalars are passed
// by value, names that are C keywords are renamed, and Fortran names longer
// than 63 characters are shortened while bind(c) keeps the C name. The
// Fortran module adds ICON-style wrap_run_* wrappers.

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
  // HEADER-NEXT: int apply_to_theta_setup(const fusec_mesh *mesh, int32_t nlev, void *stream);
  // HEADER-NEXT: int apply_to_theta_setup_with_layout(const fusec_mesh *mesh, int32_t nlev,
  // HEADER-NEXT: const fusec_layout *layout, void *stream);
  // HEADER-NEXT: int apply_to_theta_run(double *theta, const bool *mask, float *kh,
  // HEADER-SAME: const int32_t *zd_vertoffset,
  // HEADER: double int_1, int32_t arg5, bool status);
  // HEADER-NEXT: int apply_to_theta_run_and_verify(const double *theta, const bool *mask, const float *kh,
  // HEADER-NEXT: const int32_t *zd_vertoffset, double int_1, int32_t arg5,
  // HEADER-NEXT: bool status, const double *theta_before, const float *kh_before,
  // HEADER-NEXT: const fusec_tolerances *tolerances);
  // HEADER-NEXT: void apply_to_theta_free(void);
  // HEADER-NEXT: const char *apply_to_theta_error_message(int status);
  // HEADER-NEXT: void apply_to_theta_set_exchange_callback(fusec_exchange_callback callback, void *user_data);
  // HEADER-NEXT: void apply_to_theta_set_verification_callback(fusec_verification_callback callback,
  // HEADER-NEXT: void *user_data);

  // HEADER: int calculate_enhanced_diffusion_coefficients_for_grid_point_cold_pools_run(void);
  // HEADER: int calculate_enhanced_diffusion_coefficients_for_grid_point_cold_pools_run_and_verify(
  // HEADER-NEXT: const fusec_tolerances *tolerances);

  // Parameters never take the names of P_run's own locals, and copies never
  // take a parameter's name.
  // HEADER: int locals_run(int32_t rc_1, double *exchanged_1, double tolerances_1, double fusec_tolerances_1);
  // HEADER: int locals_run_and_verify(int32_t rc_1, const double *exchanged_1, double tolerances_1,
  // HEADER-NEXT: double fusec_tolerances_1, const double *exchanged_1_before,
  // HEADER-NEXT: const fusec_tolerances *tolerances);

  // The module's timers come once, after every program.
  // HEADER: /* Timers of every program above. */
  // HEADER-NEXT: void fusec_diffusion_enable_timers(int enabled);
  // HEADER-NEXT: int fusec_diffusion_write_metrics(const char *path);

  // HEADER: #ifdef __cplusplus
  // HEADER-NEXT: } /* extern "C" */
  // HEADER-NEXT: #endif
  // HEADER: #endif /* FUSEC_DIFFUSION_H */

  // FORTRAN-LABEL: module fusec_diffusion
  // FORTRAN-NEXT:   use, intrinsic :: iso_c_binding, only: c_bool, c_char, c_double, c_f_pointer, c_float, c_funptr, &
  // FORTRAN-NEXT:       c_int, c_int32_t, c_int64_t, c_ptr, c_size_t
  // FORTRAN-NEXT:   use, intrinsic :: iso_fortran_env, only: error_unit
  // FORTRAN-NEXT:   implicit none
  // FORTRAN-NEXT:   private
  // FORTRAN-NEXT:   public :: apply_to_theta_setup, apply_to_theta_setup_with_layout, apply_to_theta_run, &

  // Verification is chosen by the preprocessor, once for the module.
  // FORTRAN:      ! Whether wrap_run_* verify when given the <out>_before copies.
  // FORTRAN-NEXT: #ifdef __DSL_VERIFY
  // FORTRAN-NEXT:   logical, parameter :: verify_results = .true.
  // FORTRAN-NEXT: #else
  // FORTRAN-NEXT:   logical, parameter :: verify_results = .false.
  // FORTRAN-NEXT: #endif

  // FORTRAN:    function apply_to_theta_setup(mesh, nlev, stream) result(status) &
  // FORTRAN-NEXT:        bind(c, name="apply_to_theta_setup")
  // FORTRAN-NEXT:      import :: c_int, c_int32_t, c_ptr
  // FORTRAN-NEXT:      type(c_ptr), value :: mesh
  // FORTRAN-NEXT:      integer(c_int32_t), value :: nlev
  // FORTRAN-NEXT:      type(c_ptr), value :: stream
  // FORTRAN-NEXT:      integer(c_int) :: status
  // FORTRAN-NEXT:    end function apply_to_theta_setup
  // FORTRAN-NEXT:    function apply_to_theta_setup_with_layout(mesh, nlev, layout, stream) result(status) &
  // FORTRAN-NEXT:        bind(c, name="apply_to_theta_setup_with_layout")
  // FORTRAN-NEXT:      import :: c_int, c_int32_t, c_int64_t, c_ptr
  // FORTRAN-NEXT:      type(c_ptr), value :: mesh
  // FORTRAN-NEXT:      integer(c_int32_t), value :: nlev
  // FORTRAN-NEXT:      integer(c_int64_t), intent(in) :: layout(3)
  // FORTRAN-NEXT:      type(c_ptr), value :: stream
  // FORTRAN-NEXT:      integer(c_int) :: status
  // FORTRAN-NEXT:    end function apply_to_theta_setup_with_layout
  // FORTRAN-NEXT:    function apply_to_theta_run(theta, mask, kh, zd_vertoffset, int_1, arg5, status_1) &
  // FORTRAN-NEXT:        result(status) bind(c, name="apply_to_theta_run")
  // FORTRAN-NEXT:      import :: c_bool, c_double, c_float, c_int, c_int32_t
  // FORTRAN-NEXT:      real(c_double), intent(inout), target :: theta(*)
  // FORTRAN-NEXT:      logical(c_bool), intent(in), target :: mask(*)
  // FORTRAN-NEXT:      real(c_float), intent(inout), target :: kh(*)
  // FORTRAN-NEXT:      integer(c_int32_t), intent(in), target :: zd_vertoffset(*)
  // FORTRAN-NEXT:      real(c_double), value :: int_1
  // FORTRAN-NEXT:      integer(c_int32_t), value :: arg5
  // FORTRAN-NEXT:      logical(c_bool), value :: status_1
  // FORTRAN-NEXT:      integer(c_int) :: status
  // FORTRAN-NEXT:    end function apply_to_theta_run
  // FORTRAN-NEXT:    function apply_to_theta_run_and_verify(theta, mask, kh, zd_vertoffset, int_1, arg5, status_1, &
  // FORTRAN-NEXT:        theta_before, kh_before, tolerances) result(status) &
  // FORTRAN-NEXT:        bind(c, name="apply_to_theta_run_and_verify")
  // FORTRAN-NEXT:      import :: c_bool, c_double, c_float, c_int, c_int32_t
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
  // FORTRAN-NEXT:    subroutine apply_to_theta_free() bind(c, name="apply_to_theta_free")
  // FORTRAN-NEXT:    end subroutine apply_to_theta_free
  // FORTRAN-NEXT:    function apply_to_theta_error_message(status) result(message) &
  // FORTRAN-NEXT:        bind(c, name="apply_to_theta_error_message")
  // FORTRAN-NEXT:      import :: c_int, c_ptr
  // FORTRAN-NEXT:      integer(c_int), value :: status
  // FORTRAN-NEXT:      type(c_ptr) :: message
  // FORTRAN-NEXT:    end function apply_to_theta_error_message
  // FORTRAN-NEXT:    subroutine apply_to_theta_set_exchange_callback(callback, user_data) &
  // FORTRAN-NEXT:        bind(c, name="apply_to_theta_set_exchange_callback")
  // FORTRAN-NEXT:      import :: c_funptr, c_ptr
  // FORTRAN-NEXT:      type(c_funptr), value :: callback
  // FORTRAN-NEXT:      type(c_ptr), value :: user_data
  // FORTRAN-NEXT:    end subroutine apply_to_theta_set_exchange_callback
  // FORTRAN-NEXT:    subroutine apply_to_theta_set_verification_callback(callback, user_data) &
  // FORTRAN-NEXT:        bind(c, name="apply_to_theta_set_verification_callback")
  // FORTRAN-NEXT:      import :: c_funptr, c_ptr
  // FORTRAN-NEXT:      type(c_funptr), value :: callback
  // FORTRAN-NEXT:      type(c_ptr), value :: user_data
  // FORTRAN-NEXT:    end subroutine apply_to_theta_set_verification_callback

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
  // FORTRAN: function calculate_enhanced_diffusion_coefficients_for_grid_point__setup(mesh, nlev, stream) &
  // FORTRAN: function calculate_enhanced_diffusion_coefficients_for_grid_point_co_run() result(status) &
  // FORTRAN-NEXT: bind(c, name="calculate_enhanced_diffusion_coefficients_for_grid_point_cold_pools_run")
  // FORTRAN: subroutine calculate_enhanced_diffusion_coefficients_for_grid_point_c_free() &
  // FORTRAN-NEXT: bind(c, name="calculate_enhanced_diffusion_coefficients_for_grid_point_cold_pools_free")
  // FORTRAN: function calculate_enhanced_diffusion_coefficients_for_gri_error_message(status) &
  // FORTRAN-NEXT: result(message) &
  // FORTRAN-NEXT: bind(c, name="calculate_enhanced_diffusion_coefficients_for_grid_point_cold_pools_error_mes&
  // FORTRAN-NEXT: &sage")
  // FORTRAN: subroutine calculate_enhanced_diffusion_coefficients_set_exchange_callback(callback, &

  // The timers, once per module.
  // FORTRAN:    subroutine fusec_diffusion_enable_timers(enabled) &
  // FORTRAN-NEXT:        bind(c, name="fusec_diffusion_enable_timers")
  // FORTRAN:    function fusec_diffusion_write_metrics(path) result(status) &
  // FORTRAN-NEXT:        bind(c, name="fusec_diffusion_write_metrics")
  // FORTRAN-NEXT:      import :: c_char, c_int
  // FORTRAN-NEXT:      character(kind=c_char), intent(in) :: path(*)

  // FORTRAN-LABEL: contains

  // A wrapper takes fields as contiguous assumed-shape arrays (first extent
  // nproma), flags as default logicals, and optional `_before` copies and
  // tolerances per output; it verifies only when compiled with __DSL_VERIFY
  // and given every copy, and passes device addresses under OpenACC.
  // FORTRAN:  subroutine wrap_run_apply_to_theta(theta, mask, kh, zd_vertoffset, int_1, arg5, status_1, &
  // FORTRAN-NEXT:      theta_before, kh_before, theta_rel_tol, theta_abs_tol, kh_rel_tol, kh_abs_tol, status)
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
  // FORTRAN-NEXT:    if (verify_results .and. present(theta_before) .and. present(kh_before)) then
  // FORTRAN-NEXT:      tolerances = -1.0_c_double ! the defaults of the element type
  // FORTRAN-NEXT:      if (present(theta_rel_tol)) tolerances(1, 1) = theta_rel_tol
  // FORTRAN-NEXT:      if (present(theta_abs_tol)) tolerances(2, 1) = theta_abs_tol
  // FORTRAN-NEXT:      if (present(kh_rel_tol)) tolerances(1, 2) = kh_rel_tol
  // FORTRAN-NEXT:      if (present(kh_abs_tol)) tolerances(2, 2) = kh_abs_tol
  // FORTRAN-NEXT:      !$acc host_data use_device(theta, mask, kh, zd_vertoffset, theta_before, kh_before)
  // FORTRAN-NEXT:      rc = apply_to_theta_run_and_verify(theta, mask, kh, zd_vertoffset, int_1, arg5, &
  // FORTRAN-NEXT:          logical(status_1, c_bool), theta_before, kh_before, tolerances)
  // FORTRAN-NEXT:      !$acc end host_data
  // FORTRAN-NEXT:    else if (verify_results .and. (present(theta_before) .or. present(kh_before))) then
  // FORTRAN-NEXT:      rc = 2 ! FUSEC_ERROR_INVALID_ARGUMENT: some copies are missing
  // FORTRAN-NEXT:    else
  // FORTRAN-NEXT:      !$acc host_data use_device(theta, mask, kh, zd_vertoffset)
  // FORTRAN-NEXT:      rc = apply_to_theta_run(theta, mask, kh, zd_vertoffset, int_1, arg5, &
  // FORTRAN-NEXT:          logical(status_1, c_bool))
  // FORTRAN-NEXT:      !$acc end host_data
  // FORTRAN-NEXT:    end if
  // FORTRAN-NEXT:    call finish_call('apply_to_theta', rc, apply_to_theta_error_message(rc), status)
  // FORTRAN-NEXT:  end subroutine wrap_run_apply_to_theta

  // Without fields or outputs there is nothing to verify or to pass to the device.
  // FORTRAN:  subroutine wrap_run_calculate_enhanced_diffusion_coefficients_for_grid_poi(status)
  // FORTRAN-NEXT:    integer(c_int), intent(out), optional :: status
  // FORTRAN-NEXT:    integer(c_int) :: rc
  // FORTRAN-NEXT:    rc = calculate_enhanced_diffusion_coefficients_for_grid_point_co_run()
  // FORTRAN-NEXT:    call finish_call('calculate_enhanced_diffusion_coefficients_for_grid_point_cold_pools', rc, &
  // FORTRAN-NEXT:        calculate_enhanced_diffusion_coefficients_for_gri_error_message(rc), status)

  // FORTRAN: subroutine wrap_run_locals(rc_1, exchanged_1, tolerances_1, fusec_tolerances_1, &
  // FORTRAN-NEXT: exchanged_1_before, exchanged_1_rel_tol, exchanged_1_abs_tol, status)

  // Errors go to the caller's `status`, else stop the program with the message.
  // FORTRAN:  subroutine finish_call(program, rc, message, status)
  // FORTRAN:    write (error_unit, '(*(a))') 'fusec: wrap_run_', program, ': ', text
  // FORTRAN-NEXT:    error stop 1
  // FORTRAN:  end module fusec_diffusion
  stn.program @calculate_enhanced_diffusion_coefficients_for_grid_point_cold_pools() {
    stn.return
  }

  stn.program @locals(%rc: i32 {stn.name = "rc"},
      %exchanged: !stn.field<Cell x f64> {stn.intent = 2 : i32, stn.name = "exchanged"},
      %tolerances: f64 {stn.name = "tolerances"}, %type: f64 {stn.name = "fusec_tolerances"}) {
    stn.return
  }
}
