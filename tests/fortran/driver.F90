! The Fortran driver: calls fusec's output the way ICON does. Every program of diffusion.stn
! goes through an instance of its generated type <program>_t (create, run, destroy) on a
! limited-area grid with nproma padding and is checked against the reference interpreter
! (programs.F90, generated from the data that fusec-bench --save-outputs wrote; point lists as
! count and cell and level arrays); diffusion_step reaches an exchange callback registered from
! Fortran; run, given copies taken before the run, verifies update_theta_and_exner against them,
! reporting a corrupted value; and a point list's count beyond its arrays, a negative one and an
! empty list give the documented status codes.
!
!   fortran_driver DATA_DIR
program driver
  use, intrinsic :: iso_c_binding
  use, intrinsic :: ieee_arithmetic, only: ieee_is_nan
  use fusec_diffusion
  use fusec_runtime
  use test_support
  use programs
  implicit none
  character(4096) :: data_dir

  if (command_argument_count() /= 1) then
    print '(a)', 'usage: fortran_driver DATA_DIR'
    error stop 2
  end if
  call get_command_argument(1, data_dir)
  call open_grid(grid_name, levels, 13_c_int32_t, trim(data_dir))
  print '(a, i0, a, i0, a, i0, a, i0, a, i0)', 'driver: ' // grid_name // ': ', &
      num_points(FUSEC_CELL), ' cells, ', num_points(FUSEC_EDGE), ' edges, ', &
      num_points(FUSEC_VERTEX), ' vertices, nproma ', nproma, ', levels ', nlev

  call run_every_program()
  call begin_program('diffusion_step')
  call expect(exchanges > 0 .and. badly_padded_exchanges == 0, &
              'the exchange callback saw every exchange with ld = nproma')
  print '(a, i0, a, i0, a)', 'driver: diffusion_step called the exchange callback ', exchanges, &
      ' times with ', exchanged_fields, ' fields'

  call check_verification()
  call check_point_list_errors()
  call close_grid()
  if (failures > 0) then
    print '(a, i0, a)', 'driver: ', failures, ' checks failed'
    error stop 1
  end if
  print '(a)', 'driver: every program matches the interpreter; verification reports corruption; ' &
      // 'point lists give their status codes'

contains

  ! ICON's verification mode: its own code has computed theta_v and exner (here: the program
  ! itself); run with the copies taken before runs the program from those copies and compares.
  subroutine check_verification()
    type(update_theta_and_exner_t) :: theta_and_exner
    real(c_double), allocatable, target :: z_temp(:, :), area(:), theta_v(:, :), exner(:, :)
    real(c_double), allocatable :: theta_v_before(:, :), exner_before(:, :)
    real(c_double), target :: rd_o_cvd
    integer(c_int32_t), target :: h_start, h_end, v_start, v_end
    integer(c_int) :: status
    integer :: point, level

    call begin_program('update_theta_and_exner')
    ! A layout has 3 entries (the flat layout's ld) or 4 (and nproma).
    call theta_and_exner%create_with_layout(mesh, nlev, layout(1:2), status=status)
    call expect(status == FUSEC_ERROR_INVALID_ARGUMENT, 'a layout of 2 entries is refused')
    call theta_and_exner%create_with_layout(mesh, nlev, layout, status=status)
    call check_status(status, 'create')
    allocate(z_temp(nproma, nlev), area(nproma), theta_v(nproma, nlev), exner(nproma, nlev))
    z_temp = nan64
    area = nan64
    theta_v = nan64
    exner = nan64
    call load_field('z_temp', c_loc(z_temp), FUSEC_F64, FUSEC_CELL, 0_c_int32_t, nlev)
    call load_field('area', c_loc(area), FUSEC_F64, FUSEC_CELL, 0_c_int32_t, 0_c_int32_t)
    call load_field('theta_v', c_loc(theta_v), FUSEC_F64, FUSEC_CELL, 0_c_int32_t, nlev)
    call load_field('exner', c_loc(exner), FUSEC_F64, FUSEC_CELL, 0_c_int32_t, nlev)
    call load_scalar('rd_o_cvd', c_loc(rd_o_cvd), FUSEC_F64)
    call load_scalar('h_start', c_loc(h_start), FUSEC_I32)
    call load_scalar('h_end', c_loc(h_end), FUSEC_I32)
    call load_scalar('v_start', c_loc(v_start), FUSEC_I32)
    call load_scalar('v_end', c_loc(v_end), FUSEC_I32)
    theta_v_before = theta_v
    exner_before = exner
    call theta_and_exner%run(z_temp, area, theta_v, exner, rd_o_cvd, h_start, h_end, v_start, &
                             v_end)
    call theta_and_exner%set_verification_callback(c_funloc(on_verification), c_null_ptr)

    call theta_and_exner%run(z_temp, area, theta_v, exner, rd_o_cvd, h_start, h_end, v_start, &
        v_end, theta_v_before=theta_v_before, exner_before=exner_before, status=status)
    call expect(status == 0 .and. verification_reports == 2, &
                'run_and_verify passes the correct results, reporting both outputs')

    ! One value inside the domain, off by more than the default tolerances.
    point = h_start + 5
    level = v_start + 2
    exner(point + 1, level + 1) = exner(point + 1, level + 1) + 1e-6_c_double
    call theta_and_exner%run(z_temp, area, theta_v, exner, rd_o_cvd, h_start, h_end, v_start, &
        v_end, theta_v_before=theta_v_before, exner_before=exner_before, status=status)
    call expect(status == FUSEC_ERROR_VERIFICATION, 'run_and_verify fails on a corrupted value')
    call expect(c_string(failed_check%field) == 'exner' .and. failed_check%num_failures == 1 &
                .and. failed_check%worst_point == point .and. failed_check%worst_level == level, &
                'the report names the corrupted value')
    print '(a, i0, a, i0, a, i0, a)', 'driver: verification reported ', &
        failed_check%num_failures, ' bad value of exner at cell ', failed_check%worst_point, &
        ', level ', failed_check%worst_level, ' (corrupted there)'

    call theta_and_exner%run(z_temp, area, theta_v, exner, rd_o_cvd, h_start, h_end, v_start, &
        v_end, theta_v_before=theta_v_before, exner_before=exner_before, &
        exner_abs_tol=1e-5_c_double, status=status)
    call expect(status == 0, 'run_and_verify passes within a caller-given tolerance')

    ! ICON's plain wrapper call, the instance passed explicitly.
    call wrap_run_update_theta_and_exner(theta_and_exner, z_temp, area, theta_v, exner, rd_o_cvd, &
        h_start, h_end, v_start, v_end, theta_v_before=theta_v_before, status=status)
    call expect(status == FUSEC_ERROR_INVALID_ARGUMENT, 'only some copies are an error')
    call theta_and_exner%destroy()
  end subroutine check_verification

  ! The statuses of a point list (docs/integration.md): a count beyond the arrays is the
  ! wrapper's FUSEC_ERROR_INVALID_ARGUMENT, a negative count the launcher's FUSEC_ERROR_DOMAIN,
  ! and an empty list runs nothing; z_temp stays as it was in all three.
  subroutine check_point_list_errors()
    type(truly_horizontal_diffusion_nabla_of_theta_on_steep_points_t) :: steep_points
    integer(c_int32_t), allocatable, target :: zd_vertoffset(:, :, :), steep_cell(:), &
        steep_level(:)
    real(c_double), allocatable, target :: zd_diffcoef(:, :), geofac_n2s_c(:), &
        geofac_n2s_nbh(:, :), vcoef(:, :, :), theta_v(:, :), z_temp(:, :)
    real(c_double), allocatable :: z_temp_before(:, :)
    integer(c_int32_t) :: entries
    integer(c_int) :: status

    call begin_program('truly_horizontal_diffusion_nabla_of_theta_on_steep_points')
    call steep_points%create_with_layout(mesh, nlev, layout, status=status)
    call check_status(status, 'create')
    allocate(zd_vertoffset(nproma, 3, nlev), zd_diffcoef(nproma, nlev), geofac_n2s_c(nproma), &
             geofac_n2s_nbh(nproma, 3), vcoef(nproma, 3, nlev), theta_v(nproma, nlev), &
             z_temp(nproma, nlev))
    zd_vertoffset = 0
    zd_diffcoef = nan64
    geofac_n2s_c = nan64
    geofac_n2s_nbh = nan64
    vcoef = nan64
    theta_v = nan64
    z_temp = nan64
    call load_field('zd_vertoffset', c_loc(zd_vertoffset), FUSEC_I32, FUSEC_CELL, 3_c_int32_t, &
                    nlev)
    call load_field('zd_diffcoef', c_loc(zd_diffcoef), FUSEC_F64, FUSEC_CELL, 0_c_int32_t, nlev)
    call load_field('geofac_n2s_c', c_loc(geofac_n2s_c), FUSEC_F64, FUSEC_CELL, 0_c_int32_t, &
                    0_c_int32_t)
    call load_field('geofac_n2s_nbh', c_loc(geofac_n2s_nbh), FUSEC_F64, FUSEC_CELL, 3_c_int32_t, &
                    0_c_int32_t)
    call load_field('vcoef', c_loc(vcoef), FUSEC_F64, FUSEC_CELL, 3_c_int32_t, nlev)
    call load_field('theta_v', c_loc(theta_v), FUSEC_F64, FUSEC_CELL, 0_c_int32_t, nlev)
    call load_field('z_temp', c_loc(z_temp), FUSEC_F64, FUSEC_CELL, 0_c_int32_t, nlev)
    call load_points('steep', steep_cell, steep_level)
    entries = size(steep_cell, kind=c_int32_t)
    call expect(entries > 0, 'the saved list has entries')
    z_temp_before = z_temp

    call steep_points%run(entries + 1, steep_cell, steep_level, zd_vertoffset, zd_diffcoef, &
        geofac_n2s_c, geofac_n2s_nbh, vcoef, theta_v, z_temp, status=status)
    call expect(status == FUSEC_ERROR_INVALID_ARGUMENT, 'a count beyond the arrays is refused')
    call steep_points%run(entries, steep_cell, steep_level(1:entries - 1), zd_vertoffset, &
        zd_diffcoef, geofac_n2s_c, geofac_n2s_nbh, vcoef, theta_v, z_temp, status=status)
    call expect(status == FUSEC_ERROR_INVALID_ARGUMENT, 'a count beyond one array is refused')
    call steep_points%run(-1_c_int32_t, steep_cell, steep_level, zd_vertoffset, zd_diffcoef, &
        geofac_n2s_c, geofac_n2s_nbh, vcoef, theta_v, z_temp, status=status)
    call expect(status == FUSEC_ERROR_DOMAIN, 'a negative count is a domain error')
    call steep_points%run(0_c_int32_t, steep_cell, steep_level, zd_vertoffset, zd_diffcoef, &
        geofac_n2s_c, geofac_n2s_nbh, vcoef, theta_v, z_temp, status=status)
    call expect(status == 0, 'an empty list runs')
    call expect(all(z_temp == z_temp_before .or. (ieee_is_nan(z_temp) .and. &
                                                  ieee_is_nan(z_temp_before))), &
                'no run of a refused or empty list writes z_temp')
    call steep_points%destroy()
  end subroutine check_point_list_errors

end program driver
