! Helpers of the Fortran driver (the runtime's C API comes from the installed module
! fusec_runtime): the grid and layout every program is set up with, loading a program's
! inputs (fields and scalars through the runtime, point lists by load_points) and checking its
! outputs against the interpreter's (the files fusec-bench
! --save-outputs writes), and the callbacks the driver registers with the generated library.
module test_support
  use, intrinsic :: iso_c_binding
  use fusec_runtime
  use, intrinsic :: ieee_arithmetic, only: ieee_value, ieee_quiet_nan, ieee_is_nan
  implicit none
  private

  ! The grid, set by open_grid: every field has nproma rows, beyond the largest location.
  type(c_ptr), public :: mesh
  integer(c_int32_t), public :: nlev, nproma
  integer(c_int32_t), public :: num_points(0:2)
  integer(c_int64_t), public :: layout(3)
  real(c_double), public :: nan64
  real(c_float), public :: nan32
  integer, public :: failures = 0

  ! What the callbacks saw.
  integer, public :: exchanges = 0, exchanged_fields = 0, badly_padded_exchanges = 0
  integer, public :: verification_reports = 0
  type(fusec_field_check), public :: failed_check

  public :: open_grid, close_grid, begin_program, check_status, load_field, load_scalar
  public :: load_points
  public :: check_output, expect, on_exchange, on_verification

  type(c_ptr) :: grid = c_null_ptr
  character(:), allocatable :: data_dir, program_name

contains

  subroutine open_grid(grid_name, levels, padding, directory)
    character(*), intent(in) :: grid_name, directory
    integer(c_int32_t), intent(in) :: levels, padding
    integer(c_int32_t) :: location
    grid = fusec_grid_create(grid_name // c_null_char)
    if (.not. c_associated(grid)) then
      print '(a)', 'driver: ' // c_string(fusec_last_error())
      error stop 1
    end if
    mesh = fusec_grid_mesh(grid)
    do location = FUSEC_CELL, FUSEC_VERTEX
      num_points(location) = fusec_grid_num_points(grid, location)
    end do
    nlev = levels
    nproma = maxval(num_points) + padding
    layout = nproma
    data_dir = directory
    nan64 = ieee_value(nan64, ieee_quiet_nan)
    nan32 = ieee_value(nan32, ieee_quiet_nan)
  end subroutine open_grid

  subroutine close_grid()
    call fusec_grid_destroy(grid)
  end subroutine close_grid

  subroutine begin_program(name)
    character(*), intent(in) :: name
    program_name = name
  end subroutine begin_program

  subroutine expect(condition, message)
    logical, intent(in) :: condition
    character(*), intent(in) :: message
    if (condition) return
    print '(a)', 'driver: FAILED: ' // program_name // ': ' // message
    failures = failures + 1
  end subroutine expect

  subroutine check_status(status, what)
    integer(c_int), intent(in) :: status
    character(*), intent(in) :: what
    character(8) :: code
    write (code, '(i0)') status
    call expect(status == 0, what // ' returned ' // trim(code))
  end subroutine check_status

  function points_of(location) result(points)
    integer(c_int32_t), intent(in) :: location
    integer(c_int32_t) :: points
    points = 0
    if (location /= FUSEC_NO_LOCATION) points = num_points(location)
  end function points_of

  function file_path(kind, name) result(path)
    character(*), intent(in) :: kind, name
    character(:), allocatable :: path
    path = data_dir // '/' // program_name // '/' // kind // '/' // name // '.npy' // c_null_char
  end function file_path

  ! The argument `name` of the current program into `data`, an array with nproma rows.
  subroutine load_field(name, data, type, location, neighbors, levels)
    character(*), intent(in) :: name
    type(c_ptr), intent(in) :: data
    integer(c_int), intent(in) :: type
    integer(c_int32_t), intent(in) :: location, neighbors, levels
    if (fusec_npy_load(file_path('inputs', name), type, points_of(location), &
                       int(nproma, c_int64_t), neighbors, levels, data) /= 0) &
      call expect(.false., c_string(fusec_last_error()))
  end subroutine load_field

  subroutine load_scalar(name, value, type)
    character(*), intent(in) :: name
    type(c_ptr), intent(in) :: value
    integer(c_int), intent(in) :: type
    if (fusec_npy_load_scalar(file_path('inputs', name), type, value) /= 0) &
      call expect(.false., c_string(fusec_last_error()))
  end subroutine load_scalar

  ! The point list `name` of the current program: fusec-bench saves it as an int32 array of
  ! shape (N, 2) in C order, row i the 0-based (cell, level) of entry i, so the file's data are
  ! the pairs one after the other. Read with Fortran stream I/O (the runtime's fusec_npy_load
  ! reads fields, and needs N beforehand): the header's 'descr' must be '<i4' (a little-endian
  ! host, as fusec's), 'fortran_order' False and 'shape' (N, 2). On an error, empty lists.
  subroutine load_points(name, cells, levels)
    character(*), intent(in) :: name
    integer(c_int32_t), allocatable, intent(out) :: cells(:), levels(:)
    integer(c_int32_t), allocatable :: pairs(:, :)
    character(:), allocatable :: path, header
    character(6) :: magic
    integer(c_int8_t) :: version(2), length(4)
    integer :: unit, iostat, header_length, data_start, shape_start, shape_end
    integer :: num_entries, columns
    allocate(cells(0), levels(0))
    path = data_dir // '/' // program_name // '/inputs/' // name // '.npy'
    open(newunit=unit, file=path, access='stream', form='unformatted', status='old', &
         action='read', iostat=iostat)
    if (iostat /= 0) then
      call expect(.false., path // ': cannot open')
      return
    end if
    ! The magic string \x93NUMPY, the format version, the header's length (2 bytes in 1.0, 4 in
    ! 2.0 and 3.0, little-endian).
    read (unit, iostat=iostat) magic, version
    if (iostat /= 0 .or. ichar(magic(1:1)) /= 147 .or. magic(2:6) /= 'NUMPY') then
      call expect(.false., path // ': not a .npy file')
      close (unit)
      return
    end if
    length = 0
    if (version(1) == 1) then
      read (unit, iostat=iostat) length(1:2)
      data_start = 11
    else
      read (unit, iostat=iostat) length
      data_start = 13
    end if
    header_length = iand(int(length(1)), 255) + 256 * iand(int(length(2)), 255) + &
                    65536 * iand(int(length(3)), 255)
    data_start = data_start + header_length
    allocate(character(header_length) :: header)
    if (iostat == 0) read (unit, iostat=iostat) header
    shape_start = index(header, "'shape': (")
    num_entries = -1
    columns = 0
    if (shape_start > 0) then
      shape_start = shape_start + len("'shape': (")
      shape_end = shape_start + index(header(shape_start:), ')') - 2
      ! Two extents: one comma.
      if (shape_end >= shape_start .and. index(header(shape_start:shape_end), ',') == &
          index(header(shape_start:shape_end), ',', back=.true.)) &
        read (header(shape_start:shape_end), *, iostat=iostat) num_entries, columns
    end if
    if (iostat /= 0 .or. index(header, "'descr': '<i4'") == 0 .or. &
        index(header, "'fortran_order': False") == 0 .or. num_entries < 0 .or. columns /= 2) then
      call expect(.false., path // ': expected an int32 (N, 2) array in C order, found ' // &
                  header(1:index(header, '}')))
      close (unit)
      return
    end if
    allocate(pairs(2, num_entries))
    read (unit, pos=data_start, iostat=iostat) pairs
    close (unit)
    if (iostat /= 0) then
      call expect(.false., path // ': shorter than its shape')
      return
    end if
    cells = pairs(1, :)
    levels = pairs(2, :)
  end subroutine load_points

  ! Compares the output `name` with the interpreter's and checks that its padding (rows beyond
  ! the location's points) still holds the NaN it was filled with.
  subroutine check_output(name, data, type, location, neighbors, levels)
    character(*), intent(in) :: name
    type(c_ptr), intent(in) :: data
    integer(c_int), intent(in) :: type
    integer(c_int32_t), intent(in) :: location, neighbors, levels
    integer(c_int64_t), allocatable, target :: reference(:) ! 8 bytes per element suffice
    real(c_double), pointer :: values64(:, :)
    real(c_float), pointer :: values32(:, :)
    type(fusec_field_check) :: check
    integer :: rows, points
    character(160) :: report
    rows = max(neighbors, 1) * max(levels, 1)
    points = points_of(location)
    allocate(reference(merge(int(nproma) * rows, max(levels, 1), points > 0)))
    if (fusec_npy_load(file_path('reference', name), type, points, int(nproma, c_int64_t), &
                       neighbors, levels, c_loc(reference)) /= 0) then
      call expect(.false., c_string(fusec_last_error()))
      return
    end if
    if (fusec_check_field(name // c_null_char, type, location, points, int(nproma, c_int64_t), &
                          neighbors, levels, data, c_loc(reference), c_null_ptr, check) /= 0) then
      write (report, '(a, i0, a, i0, a, i0, a, i0, a, es24.16, a, es24.16)') &
          ': ', check%num_failures, ' of ', check%num_values, ' values differ, worst at point ', &
          check%worst_point, ', level ', check%worst_level, ': ', check%worst_value, &
          ' instead of ', check%worst_reference
      call expect(.false., name // trim(report))
    end if
    if (points == 0) return
    if (type == FUSEC_F64) then
      call c_f_pointer(data, values64, [int(nproma), rows])
      call expect(all(ieee_is_nan(values64(points + 1:, :))), name // ': padding was written')
    else if (type == FUSEC_F32) then
      call c_f_pointer(data, values32, [int(nproma), rows])
      call expect(all(ieee_is_nan(values32(points + 1:, :))), name // ': padding was written')
    end if
  end subroutine check_output

  ! The exchange callback: counts exchanges and checks that fields arrive with ld = nproma.
  function on_exchange(program, fields, num_fields, stream, user_data) result(status) bind(c)
    type(c_ptr), value :: program, fields, stream, user_data
    integer(c_int32_t), value :: num_fields
    integer(c_int) :: status
    type(fusec_exchange_field), pointer :: described(:)
    integer :: i
    call c_f_pointer(fields, described, [num_fields])
    exchanges = exchanges + 1
    exchanged_fields = exchanged_fields + num_fields
    do i = 1, num_fields
      if (described(i)%location /= FUSEC_NO_LOCATION .and. described(i)%ld /= nproma) &
        badly_padded_exchanges = badly_padded_exchanges + 1
    end do
    status = 0
    if (.not. c_associated(program) .or. c_associated(stream) .or. c_associated(user_data)) &
      status = 1
  end function on_exchange

  ! The verification callback: counts reports and keeps the last failing one.
  subroutine on_verification(check, user_data) bind(c)
    type(fusec_field_check), intent(in) :: check
    type(c_ptr), value :: user_data
    verification_reports = verification_reports + 1
    if (check%num_failures > 0) failed_check = check
    if (c_associated(user_data)) verification_reports = -1
  end subroutine on_verification

end module test_support
