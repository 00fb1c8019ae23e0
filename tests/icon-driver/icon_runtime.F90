! The runtime's C API (fusec/c_api.h) as the ICON-shaped driver uses it: the grid, reading
! the initial state and the reference from .npy files, and converting between ICON's blocked
! arrays and the flat layout of those files. ICON itself would have its own grid and state;
! only the fusec_<stem> module and fusec_layout are what ICON needs from fusec.
module icon_runtime
  use, intrinsic :: iso_c_binding
  implicit none
  private

  ! fusec_element_type, fusec_location and fusec_status values.
  integer(c_int), parameter, public :: F64 = 0, I32 = 2
  integer(c_int32_t), parameter, public :: CELL = 0, EDGE = 1, VERTEX = 2

  ! fusec_field_check
  type, bind(c), public :: field_check
    type(c_ptr) :: program, field
    integer(c_int32_t) :: location
    integer(c_int64_t) :: num_values, num_failures
    real(c_double) :: rtol, atol
    integer(c_int32_t) :: worst_point, worst_neighbor, worst_level
    real(c_double) :: worst_value, worst_reference
  end type field_check

  ! fusec_exchange_field
  type, bind(c), public :: exchange_field
    type(c_ptr) :: name, data
    integer(c_int) :: type
    integer(c_int32_t) :: location, num_levels, num_neighbors
    integer(c_int64_t) :: ld
    integer(c_int32_t) :: num_blocks
  end type exchange_field

  public :: fusec_grid_create, fusec_grid_destroy, fusec_grid_mesh, fusec_grid_num_points
  public :: fusec_npy_load, fusec_npy_load_scalar, fusec_check_field, fusec_last_error
  public :: fusec_copy_to_blocked, fusec_copy_from_blocked, c_string

  interface
    function fusec_grid_create(name) result(handle) bind(c, name="fusec_grid_create")
      import :: c_char, c_ptr
      character(kind=c_char), intent(in) :: name(*)
      type(c_ptr) :: handle
    end function fusec_grid_create
    subroutine fusec_grid_destroy(handle) bind(c, name="fusec_grid_destroy")
      import :: c_ptr
      type(c_ptr), value :: handle
    end subroutine fusec_grid_destroy
    function fusec_grid_mesh(handle) result(descriptor) bind(c, name="fusec_grid_mesh")
      import :: c_ptr
      type(c_ptr), value :: handle
      type(c_ptr) :: descriptor
    end function fusec_grid_mesh
    function fusec_grid_num_points(handle, location) result(points) &
        bind(c, name="fusec_grid_num_points")
      import :: c_int32_t, c_ptr
      type(c_ptr), value :: handle
      integer(c_int32_t), value :: location
      integer(c_int32_t) :: points
    end function fusec_grid_num_points
    function fusec_npy_load(path, type, points, ld, neighbors, levels, data) result(status) &
        bind(c, name="fusec_npy_load")
      import :: c_char, c_int, c_int32_t, c_int64_t, c_ptr
      character(kind=c_char), intent(in) :: path(*)
      integer(c_int), value :: type
      integer(c_int32_t), value :: points
      integer(c_int64_t), value :: ld
      integer(c_int32_t), value :: neighbors, levels
      type(c_ptr), value :: data
      integer(c_int) :: status
    end function fusec_npy_load
    function fusec_npy_load_scalar(path, type, value) result(status) &
        bind(c, name="fusec_npy_load_scalar")
      import :: c_char, c_int, c_ptr
      character(kind=c_char), intent(in) :: path(*)
      integer(c_int), value :: type
      type(c_ptr), value :: value
      integer(c_int) :: status
    end function fusec_npy_load_scalar
    function fusec_check_field(name, type, location, points, ld, neighbors, levels, values, &
        reference, tolerances, check) result(status) bind(c, name="fusec_check_field")
      import :: c_char, c_int, c_int32_t, c_int64_t, c_ptr, field_check
      character(kind=c_char), intent(in) :: name(*)
      integer(c_int), value :: type
      integer(c_int32_t), value :: location, points
      integer(c_int64_t), value :: ld
      integer(c_int32_t), value :: neighbors, levels
      type(c_ptr), value :: values, reference, tolerances
      type(field_check), intent(out) :: check
      integer(c_int) :: status
    end function fusec_check_field
    function fusec_copy_to_blocked(type, points, ld, neighbors, levels, nproma, flat, &
        blocked) result(status) bind(c, name="fusec_copy_to_blocked")
      import :: c_int, c_int32_t, c_int64_t, c_ptr
      integer(c_int), value :: type
      integer(c_int32_t), value :: points
      integer(c_int64_t), value :: ld
      integer(c_int32_t), value :: neighbors, levels
      integer(c_int64_t), value :: nproma
      type(c_ptr), value :: flat, blocked
      integer(c_int) :: status
    end function fusec_copy_to_blocked
    function fusec_copy_from_blocked(type, points, ld, neighbors, levels, nproma, blocked, &
        flat) result(status) bind(c, name="fusec_copy_from_blocked")
      import :: c_int, c_int32_t, c_int64_t, c_ptr
      integer(c_int), value :: type
      integer(c_int32_t), value :: points
      integer(c_int64_t), value :: ld
      integer(c_int32_t), value :: neighbors, levels
      integer(c_int64_t), value :: nproma
      type(c_ptr), value :: blocked, flat
      integer(c_int) :: status
    end function fusec_copy_from_blocked
    function fusec_last_error() result(message) bind(c, name="fusec_last_error")
      import :: c_ptr
      type(c_ptr) :: message
    end function fusec_last_error
    function strlen(text) result(length) bind(c, name="strlen")
      import :: c_ptr, c_size_t
      type(c_ptr), value :: text
      integer(c_size_t) :: length
    end function strlen
  end interface

contains

  ! A C string as a Fortran string.
  function c_string(text) result(string)
    type(c_ptr), intent(in) :: text
    character(:), allocatable :: string
    character(kind=c_char), pointer :: chars(:)
    integer :: i
    call c_f_pointer(text, chars, [strlen(text)])
    allocate(character(size(chars)) :: string)
    do i = 1, size(chars)
      string(i:i) = chars(i)
    end do
  end function c_string

end module icon_runtime
