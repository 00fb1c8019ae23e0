// RUN: %fusec-translate --stn-to-header %s | FileCheck %s --check-prefix=HEADER
// RUN: %fusec-translate --stn-to-fortran %s | FileCheck %s --check-prefix=FORTRAN

// One C interface, declared for C99/C++ and for Fortran: fields are pointers
// (`in` ones to const) or assumed-size arrays, scalars are passed by value,
// names that are C keywords are renamed, and Fortran names longer than 63
// characters are shortened while bind(c) keeps the C name.

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
  // HEADER-NEXT: int apply_to_theta_run(double *theta, const bool *mask, float *kh,
  // HEADER: const int32_t *zd_vertoffset,
  // HEADER: double int_1, int32_t arg5, bool status);
  // HEADER-NEXT: void apply_to_theta_free(void);
  // HEADER-NEXT: const char *apply_to_theta_error_message(int status);
  // HEADER-NEXT: void apply_to_theta_set_exchange_callback(fusec_exchange_callback callback, void *user_data);

  // HEADER: int calculate_enhanced_diffusion_coefficients_for_grid_point_cold_pools_run(void);

  // Parameters never take the names of P_run's own locals.
  // HEADER: int locals_run(int32_t rc_1, double *exchanged_1);

  // HEADER: #ifdef __cplusplus
  // HEADER-NEXT: } /* extern "C" */
  // HEADER-NEXT: #endif
  // HEADER: #endif /* FUSEC_DIFFUSION_H */

  // FORTRAN-LABEL: module fusec_diffusion
  // FORTRAN-NEXT:   use, intrinsic :: iso_c_binding, only: c_bool, c_double, c_float, c_funptr, c_int, c_int32_t, &
  // FORTRAN-NEXT:       c_ptr
  // FORTRAN-NEXT:   implicit none
  // FORTRAN-NEXT:   private
  // FORTRAN-NEXT:   public :: apply_to_theta_setup, apply_to_theta_run, apply_to_theta_free, &

  // FORTRAN:    function apply_to_theta_setup(mesh, nlev, stream) result(status) &
  // FORTRAN-NEXT:        bind(c, name="apply_to_theta_setup")
  // FORTRAN-NEXT:      import :: c_int, c_int32_t, c_ptr
  // FORTRAN-NEXT:      type(c_ptr), value :: mesh
  // FORTRAN-NEXT:      integer(c_int32_t), value :: nlev
  // FORTRAN-NEXT:      type(c_ptr), value :: stream
  // FORTRAN-NEXT:      integer(c_int) :: status
  // FORTRAN-NEXT:    end function apply_to_theta_setup
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
  stn.connectivity @C2E2C : Cell -> Cell [3] skip
  stn.program @apply_to_theta(%theta: !stn.field<Cell x K x f64> {stn.intent = 2 : i32, stn.name = "theta"},
      %mask: !stn.field<Cell x K x i1> {stn.name = "mask"},
      %kh: !stn.field<Edge x K x f32> {stn.intent = 1 : i32, stn.name = "kh"},
      %off: !stn.field<Cell x C2E2C[3] x K x i32> {stn.name = "zd_vertoffset"},
      %keyword: f64 {stn.name = "int"}, %unnamed: i32, %status: i1 {stn.name = "status"}) {
    stn.return
  }

  // Longer than 63 characters: the Fortran name loses the end of the program's
  // name but keeps its suffix; bind(c) keeps the C name, continued inside the
  // string where it does not fit on a line.
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
  // FORTRAN: end module fusec_diffusion
  stn.program @calculate_enhanced_diffusion_coefficients_for_grid_point_cold_pools() {
    stn.return
  }

  stn.program @locals(%rc: i32 {stn.name = "rc"},
      %exchanged: !stn.field<Cell x f64> {stn.intent = 2 : i32, stn.name = "exchanged"}) {
    stn.return
  }
}
