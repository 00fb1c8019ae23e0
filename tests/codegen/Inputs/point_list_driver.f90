! Runs program `steep_update` of point-lists.stn through its Fortran module as ICON would: fields
! in the blocked layout f(nproma, [n,] nlev, nblks) with nproma 2 on the mesh of tiny_mesh.h
! (3 cells, nlev 3), and the steep points as ICON's 1-based index lists (jc, jb, jk), converted
! to the module's 0-based flat cells and levels. The data are those of point_list_driver.cpp.
! Prints z, then the status of a run whose count exceeds the list's arrays.
program point_list_driver
  use, intrinsic :: iso_c_binding, only: c_double, c_int, c_int32_t, c_int64_t, c_ptr
  use fusec_point_lists, only: steep_update_t
  implicit none

  interface
    function tiny_mesh() result(mesh) bind(c, name="tiny_mesh")
      import :: c_ptr
      type(c_ptr) :: mesh
    end function tiny_mesh
  end interface

  integer, parameter :: nproma = 2, nlev = 3, nblks = 2, ncells = 3, nentries = 4
  ! The entries (2, 0), (0, 2), (1, 1), (2, 2) in ICON's indices.
  integer(c_int32_t), parameter :: jc(nentries) = [1, 1, 2, 1], jb(nentries) = [2, 1, 1, 2], &
                                   jk(nentries) = [1, 3, 2, 3]
  real(c_double) :: theta(nproma, nlev, nblks), weight(nproma, 3, nblks), coef(nproma, nblks)
  real(c_double) :: z(nproma, nlev, nblks)
  integer(c_int32_t) :: steep_cell(nentries), steep_level(nentries)
  type(steep_update_t) :: program_instance
  integer(c_int) :: status
  integer :: cell, level, slot

  theta = 0
  weight = 0
  coef = 0
  z = 0
  do cell = 0, ncells - 1
    do level = 0, nlev - 1
      theta(mod(cell, nproma) + 1, level + 1, cell / nproma + 1) = cell + 10 * level + 1
    end do
    do slot = 0, 2
      weight(mod(cell, nproma) + 1, slot + 1, cell / nproma + 1) = slot + 1
    end do
    coef(mod(cell, nproma) + 1, cell / nproma + 1) = cell + 1
  end do
  steep_cell = (jb - 1) * nproma + jc - 1
  steep_level = jk - 1

  call program_instance%create_with_layout(tiny_mesh(), nlev, [0_c_int64_t, 0_c_int64_t, &
                                           0_c_int64_t, int(nproma, c_int64_t)])
  call program_instance%run(steep_count=nentries, steep_cell=steep_cell, steep_level=steep_level, &
                            theta=theta, weight=weight, coef=coef, z=z, lo=0, hi=ncells, &
                            status=status)
  print '(a, i0)', 'run: ', status
  do cell = 0, ncells - 1
    print '(a, i0, a, 3f6.0)', 'z c', cell, ':', z(mod(cell, nproma) + 1, :, cell / nproma + 1)
  end do
  call program_instance%run(steep_count=nentries + 1, steep_cell=steep_cell, &
                            steep_level=steep_level, theta=theta, weight=weight, coef=coef, z=z, &
                            lo=0, hi=ncells, status=status)
  print '(a, i0)', 'count beyond the arrays: ', status
  call program_instance%destroy()
end program point_list_driver
