! Fortran bindings of the fusec runtime's C API for drivers (fusec/c_api.h, library
! FuseC::runtime): the enumerations and structs of fusec/kernel_support.h that the C API and
! the callbacks of generated code use, one bind(c) interface per function, and c_string.
! Installed with the package and compiled by the consumer's own Fortran compiler (module files
! are compiler-specific): link FuseC::runtime_fortran (docs/integration.md).
module fusec_runtime
  use, intrinsic :: iso_c_binding, only: c_char, c_double, c_f_pointer, c_int, c_int32_t, &
                                         c_int64_t, c_ptr, c_size_t
  implicit none
  private

  ! fusec_element_type
  integer(c_int), parameter, public :: FUSEC_F64 = 0, FUSEC_F32 = 1, FUSEC_I32 = 2, &
                                       FUSEC_BOOL = 3
  ! fusec_location, and FUSEC_NO_LOCATION for fields without horizontal dimension
  integer(c_int32_t), parameter, public :: FUSEC_CELL = 0, FUSEC_EDGE = 1, FUSEC_VERTEX = 2, &
                                           FUSEC_NO_LOCATION = -1
  ! fusec_status
  integer(c_int), parameter, public :: FUSEC_SUCCESS = 0, FUSEC_ERROR_NOT_SET_UP = 1, &
      FUSEC_ERROR_INVALID_ARGUMENT = 2, FUSEC_ERROR_CONNECTIVITY = 3, &
      FUSEC_ERROR_OUT_OF_MEMORY = 4, FUSEC_ERROR_DOMAIN = 5, FUSEC_ERROR_EXCHANGE = 6, &
      FUSEC_ERROR_CUDA = 7, FUSEC_ERROR_VERIFICATION = 8, FUSEC_ERROR_IO = 9, &
      FUSEC_ERROR_UNSUPPORTED_LAYOUT = 10

  ! fusec_tolerances: a negative entry takes the element type's default
  type, bind(c), public :: fusec_tolerances
    real(c_double) :: rtol, atol
  end type fusec_tolerances

  ! fusec_field_check: what a comparison found (verification callback, fusec_check_field)
  type, bind(c), public :: fusec_field_check
    type(c_ptr) :: program, field
    integer(c_int32_t) :: location
    integer(c_int64_t) :: num_values, num_failures
    type(fusec_tolerances) :: tolerances
    integer(c_int32_t) :: worst_point, worst_neighbor, worst_level
    real(c_double) :: worst_value, worst_reference
  end type fusec_field_check

  ! fusec_exchange_field: a field handed to the exchange callback, in the instance's layout
  type, bind(c), public :: fusec_exchange_field
    type(c_ptr) :: name, data
    integer(c_int) :: type
    integer(c_int32_t) :: location, num_levels, num_neighbors
    integer(c_int64_t) :: ld
    integer(c_int32_t) :: num_blocks
  end type fusec_exchange_field

  public :: fusec_grid_create, fusec_grid_destroy, fusec_grid_mesh, fusec_grid_num_points
  public :: fusec_grid_zone, fusec_random_field, fusec_npy_load, fusec_npy_save
  public :: fusec_npy_load_scalar, fusec_check_field, fusec_blocked_size
  public :: fusec_copy_to_blocked, fusec_copy_from_blocked, fusec_last_error, c_string

  ! Names are C strings (end them in c_null_char); fields are passed as c_loc(array). Functions
  ! of the same shape still get an interface each: with `procedure(abstract), bind(c)`
  ! gfortran 12 passes the VALUE dummies by reference.
  interface
    function fusec_grid_create(name) result(grid) bind(c, name="fusec_grid_create")
      import :: c_char, c_ptr
      character(kind=c_char), intent(in) :: name(*)
      type(c_ptr) :: grid
    end function fusec_grid_create
    subroutine fusec_grid_destroy(grid) bind(c, name="fusec_grid_destroy")
      import :: c_ptr
      type(c_ptr), value :: grid
    end subroutine fusec_grid_destroy
    function fusec_grid_mesh(grid) result(mesh) bind(c, name="fusec_grid_mesh")
      import :: c_ptr
      type(c_ptr), value :: grid
      type(c_ptr) :: mesh
    end function fusec_grid_mesh
    function fusec_grid_num_points(grid, location) result(points) &
        bind(c, name="fusec_grid_num_points")
      import :: c_int32_t, c_ptr
      type(c_ptr), value :: grid
      integer(c_int32_t), value :: location
      integer(c_int32_t) :: points
    end function fusec_grid_num_points
    function fusec_grid_zone(grid, location, zone, start, end) result(status) &
        bind(c, name="fusec_grid_zone")
      import :: c_char, c_int, c_int32_t, c_ptr
      type(c_ptr), value :: grid
      integer(c_int32_t), value :: location
      character(kind=c_char), intent(in) :: zone(*)
      integer(c_int32_t), intent(out) :: start, end
      integer(c_int) :: status
    end function fusec_grid_zone
    function fusec_random_field(seed, name, low, high, type, points, ld, neighbors, levels, &
        data) result(status) bind(c, name="fusec_random_field")
      import :: c_char, c_double, c_int, c_int32_t, c_int64_t, c_ptr
      integer(c_int64_t), value :: seed
      character(kind=c_char), intent(in) :: name(*)
      real(c_double), value :: low, high
      integer(c_int), value :: type
      integer(c_int32_t), value :: points
      integer(c_int64_t), value :: ld
      integer(c_int32_t), value :: neighbors, levels
      type(c_ptr), value :: data
      integer(c_int) :: status
    end function fusec_random_field
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
    function fusec_npy_save(path, type, points, ld, neighbors, levels, data) result(status) &
        bind(c, name="fusec_npy_save")
      import :: c_char, c_int, c_int32_t, c_int64_t, c_ptr
      character(kind=c_char), intent(in) :: path(*)
      integer(c_int), value :: type
      integer(c_int32_t), value :: points
      integer(c_int64_t), value :: ld
      integer(c_int32_t), value :: neighbors, levels
      type(c_ptr), value :: data
      integer(c_int) :: status
    end function fusec_npy_save
    function fusec_npy_load_scalar(path, type, value) result(status) &
        bind(c, name="fusec_npy_load_scalar")
      import :: c_char, c_int, c_ptr
      character(kind=c_char), intent(in) :: path(*)
      integer(c_int), value :: type
      type(c_ptr), value :: value
      integer(c_int) :: status
    end function fusec_npy_load_scalar
    ! tolerances: c_null_ptr or c_loc of a fusec_tolerances
    function fusec_check_field(name, type, location, points, ld, neighbors, levels, values, &
        reference, tolerances, check) result(status) bind(c, name="fusec_check_field")
      import :: c_char, c_int, c_int32_t, c_int64_t, c_ptr, fusec_field_check
      character(kind=c_char), intent(in) :: name(*)
      integer(c_int), value :: type
      integer(c_int32_t), value :: location, points
      integer(c_int64_t), value :: ld
      integer(c_int32_t), value :: neighbors, levels
      type(c_ptr), value :: values, reference, tolerances
      type(fusec_field_check), intent(out) :: check
      integer(c_int) :: status
    end function fusec_check_field
    function fusec_blocked_size(points, nproma, neighbors, levels) result(size) &
        bind(c, name="fusec_blocked_size")
      import :: c_int32_t, c_int64_t
      integer(c_int32_t), value :: points
      integer(c_int64_t), value :: nproma
      integer(c_int32_t), value :: neighbors, levels
      integer(c_int64_t) :: size
    end function fusec_blocked_size
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
    function c_strlen(text) result(length) bind(c, name="strlen")
      import :: c_ptr, c_size_t
      type(c_ptr), value :: text
      integer(c_size_t) :: length
    end function c_strlen
  end interface

contains

  ! A C string (fusec_last_error(), a field check's names, P_error_message) as a Fortran string.
  function c_string(text) result(string)
    type(c_ptr), intent(in) :: text
    character(:), allocatable :: string
    character(kind=c_char), pointer :: chars(:)
    integer :: i
    call c_f_pointer(text, chars, [c_strlen(text)])
    allocate(character(size(chars)) :: string)
    do i = 1, size(chars)
      string(i:i) = chars(i)
    end do
  end function c_string
end module fusec_runtime
