# Outputs and sizes checked before the first step (issue 36): an output that is the deck, a device
# or in a directory that takes no file; grids too large to count or to fit. The catalogue
# (hostile/) has many more of each kind; these name the messages.
wavefd_cli_error(summary_is_the_deck "output.summary = '.*quickstart.toml' is the input deck = '.*quickstart.toml'; accepted: "
                 "run;${QS};--output.summary;${QS}")
wavefd_cli_error(summary_is_a_device "output.summary = '/dev/null' is a character device; accepted: a new file or a regular file"
                 "run;${QS};--output.summary;/dev/null")
wavefd_cli_error(summary_in_proc "output.summary = '/proc/s.json': no file can be created in '/proc'"
                 "run;${QS};--output.summary;/proc/s.json")
wavefd_cli_error(traces_are_the_summary "output.summary = 'out.json' is also receivers.file = 'out.json'; accepted: "
                 "seismic;${SMALL};--output.summary;out.json;--receivers.file;out.json")
wavefd_cli_error(summary_is_a_slice "output.summary = 'snap-000010.bin' is also output.slices = 'snap-NNNNNN.bin'"
                 "seismic;${SMALL};--output.summary;snap-000010.bin;--output.slices;snap")
wavefd_cli_error(grid_axis_beyond_range "grid.n\\[x\\] = 4294967297 is too large; accepted: 1..2147483648"
                 "run;${QS};--grid.n;4294967297;16;16")
wavefd_cli_error(grid_points_beyond_count "grid.n = \\[2147483648, 2147483648, 2147483648\\] is .* points with the halo; accepted: fewer than 2\\^62"
                 "run;${QS};--grid.n;2147483648;2147483648;2147483648")
wavefd_cli_error(grid_beyond_memory "grid.n = \\[100000, 100000, 100000\\] over 1 rank needs [0-9.]+ GiB per rank \\(two float fields .*\\); rank 0 has [0-9.]+ GiB \\(.*\\); accepted: a grid that fits, or more ranks"
                 "run;${QS};--grid.n;100000;100000;100000")
wavefd_cli_error(seismic_grid_beyond_memory "grid.n = \\[100000, 100000, 100000\\] over 1 rank needs [0-9.]+ GiB per rank"
                 "seismic;${SMALL};--grid.n;100000;100000;100000")
