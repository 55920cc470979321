// The Tinker Bell tray: a shell (deck, card wells, button and lights) and a base that carries the
// board and closes the shell with screws. Every dimension comes from dimensions.scad, which
// `python hardware/render.py` writes from dimensions.toml: change the numbers there.
//
// part = "shell" | "base_pi_zero_2w" | "base_pico"   one part, placed as it is printed
//      | "assembly" | "exploded" | "bases" | "inside"  pictures (with the board, button, LEDs)
// Origin: the middle of the tray, z = 0 on the base's top face (the shell's bottom edge).

include <dimensions.scad>

part = "assembly";
board_name = "pi_zero_2w";  // the board shown in "assembly" and "exploded"

$fn = 48;
eps = 0.01;

// ---- derived sizes -----------------------------------------------------------------------
well_x = cards_width + 2 * cards_play;
well_y = cards_length + 2 * cards_play;
deck_stack = cards_count * cards_thickness;
height = max(deck_stack + cards_headroom, button_depth_below + shell_deck + 2);
strip = screws_boss_d + 1;                      // boss lane in front of and behind each well
inner_y = well_y + 2 * shell_inner_wall + 2 * strip;
outer_x = 2 * shell_wall + 2 * well_x + 2 * shell_inner_wall + shell_bay;
outer_y = inner_y + 2 * shell_wall;
well_cx = shell_bay / 2 + shell_inner_wall + well_x / 2;
back_inner = inner_y / 2;
boss_inset = screws_boss_d / 2 - 0.5;           // bosses merge 0.5 mm into the wall
boss_y = back_inner - boss_inset;
boss_x = outer_x / 2 - shell_wall - boss_inset;
boss_positions = [[-boss_x, -boss_y], [boss_x, -boss_y], [-boss_x, boss_y], [boss_x, boss_y],
                  [0, -boss_y], [0, boss_y]];
button_at = [0, button_y];
function led_at(i) = button_at + leds_ring_r * [cos(leds_first_angle - 90 * i),
                                                 sin(leds_first_angle - 90 * i)];

// A board: [size, holes, pilot_d, standoff_d, standoff_h, port, board_hole_d].
function board(name) = name == "pico"
  ? [boards_pico_size, boards_pico_holes, boards_pico_pilot_d, boards_pico_standoff_d,
     boards_pico_standoff_h, boards_pico_port, boards_pico_board_hole_d]
  : [boards_pi_zero_2w_size, boards_pi_zero_2w_holes, boards_pi_zero_2w_pilot_d,
     boards_pi_zero_2w_standoff_d, boards_pi_zero_2w_standoff_h, boards_pi_zero_2w_port,
     boards_pi_zero_2w_board_hole_d];
// The outward direction of the edge the port is on, then the turn that points it at the back.
function port_normal(b) = b[5][1] == 0 ? -90 : b[5][0] == 0 ? 180 : b[5][0] == b[0][0] ? 0 : 90;
function board_turn(b) = 90 - port_normal(b);
function rot(p, a) = [p[0] * cos(a) - p[1] * sin(a), p[0] * sin(a) + p[1] * cos(a)];
function board_point(b, p) = [power_slot_x, back_inner - power_gap] + rot(p - b[5], board_turn(b));
function board_corners(b) = [for (p = [[0, 0], [b[0][0], 0], [0, b[0][1]], b[0]]) board_point(b, p)];

// ---- checks: a layout that cannot be assembled stops the render --------------------------
module check_board(name) {
  b = board(name);
  c = board_corners(b);
  xs = [for (p = c) p[0]];
  ys = [for (p = c) p[1]];
  assert(min(xs) > -shell_bay / 2 && max(xs) < shell_bay / 2,
         str(name, " does not fit the bay between the wells"));
  near = [max(min(xs), min(button_at[0], max(xs))), max(min(ys), min(button_at[1], max(ys)))];
  assert(norm(near - button_at) > button_keepout_d / 2,
         str(name, " is under the button's body"));
  assert(max(ys) < boss_y - screws_boss_d / 2, str(name, " runs into the back bosses"));
}
assert(abs(power_slot_x) + power_slot_w / 2 < shell_bay / 2, "the power slot is outside the bay");
assert(abs(power_slot_x) > power_slot_w / 2 + screws_boss_d / 2, "the power slot hits a boss");
assert(leds_ring_r - leds_rim_d / 2 > button_keepout_d / 2, "a light is under the button");

// ---- the shell ---------------------------------------------------------------------------
module rounded_box(x, y, h, r) {
  linear_extrude(h) offset(r) square([x - 2 * r, y - 2 * r], center = true);
}

module well_walls() {
  for (s = [-1, 1]) translate([s * well_cx, 0, 0]) difference() {
    translate([0, 0, height / 2]) cube([well_x + 2 * shell_inner_wall, well_y + 2 * shell_inner_wall, height], center = true);
    translate([0, 0, height / 2]) cube([well_x, well_y, height + 1], center = true);
  }
}

module bosses() {
  for (p = boss_positions) translate([p[0], p[1], 0])
    cylinder(d = screws_boss_d, h = height - shell_deck + eps);
}

module finger_notch(s) {
  // A notch in the well's outer end to reach the cards: its bottom is a 45 degree V, not a
  // curve, so it prints without support with the shell deck down.
  w = cards_notch_w;
  translate([s * outer_x / 2, 0, 0]) rotate([90, 0, 90])
    linear_extrude(4 * shell_wall, center = true)
      polygon([[-w / 2, height + 1], [w / 2, height + 1], [w / 2, height - cards_notch_depth + w / 2],
               [0, height - cards_notch_depth], [-w / 2, height - cards_notch_depth + w / 2]]);
}

module dial() {
  // The colour selector: a ring around the button split into four quadrants, one per light,
  // drawn as 1 mm grooves (the deck prints face down: a groove that narrow bridges cleanly);
  // paint each quadrant in its light's colour.
  module ring(r) difference() { circle(r = r + 0.5, $fn = 64); circle(r = r - 0.5, $fn = 64); }
  translate([button_at[0], button_at[1], height - leds_dial_depth])
    linear_extrude(leds_dial_depth + 1) {
      ring(leds_dial_outer_r);
      ring(leds_dial_inner_r);
      for (i = [0:3]) rotate(leds_first_angle - 90 * i + 45)
        translate([leds_dial_inner_r, -0.5]) square([leds_dial_outer_r - leds_dial_inner_r, 1]);
    }
}

module shell() {
  difference() {
    union() {
      difference() {
        rounded_box(outer_x, outer_y, height, shell_corner_r);
        translate([0, 0, -1]) cube([outer_x - 2 * shell_wall, inner_y, 2 * (height - shell_deck + 1)], center = true);
      }
      well_walls();
      bosses();
    }
    for (s = [-1, 1]) {
      translate([s * well_cx, 0, height / 2]) cube([well_x, well_y, height + 2], center = true);
      finger_notch(s);
    }
    translate([button_at[0], button_at[1], height - shell_deck - 1])
      cylinder(d = button_hole_d, h = shell_deck + 2, $fn = 64);
    for (i = [0:3]) translate([led_at(i)[0], led_at(i)[1], height - shell_deck - 1])
      cylinder(d = leds_hole_d, h = shell_deck + 2, $fn = 32);
    dial();
    for (p = boss_positions) translate([p[0], p[1], -1])
      cylinder(d = screws_pilot_d, h = height - shell_deck, $fn = 24);
    translate([power_slot_x, back_inner + shell_wall / 2, power_slot_h / 2 - 1])
      cube([power_slot_w, 2 * shell_wall, power_slot_h + 2], center = true);
  }
}

// ---- the base ----------------------------------------------------------------------------
module base(name) {
  b = board(name);
  difference() {
    union() {
      translate([0, 0, -shell_base]) rounded_box(outer_x, outer_y, shell_base, shell_corner_r);
      for (h = b[1]) translate(concat(board_point(b, h), [-eps]))
        cylinder(d = b[3], h = b[4] + eps, $fn = 32);
    }
    for (p = boss_positions) translate([p[0], p[1], -shell_base - 1]) {
      cylinder(d = screws_clearance_d, h = shell_base + 2, $fn = 24);
      cylinder(d = screws_head_d, h = screws_head_h + 1, $fn = 32);
    }
    for (h = b[1]) translate(concat(board_point(b, h), [-shell_base + 1]))
      cylinder(d = b[2], h = shell_base + b[4], $fn = 24);
  }
}

// ---- pictures: what goes inside ------------------------------------------------------------
module board_model(name) {
  b = board(name);
  color(name == "pico" ? "ForestGreen" : "DarkGreen")
    translate(concat(board_point(b, [0, 0]), [b[4]])) rotate(board_turn(b)) difference() {
      cube([b[0][0], b[0][1], 1.2]);
      for (h = b[1]) translate([h[0], h[1], -1]) cylinder(d = b[6], h = 4, $fn = 16);
    }
  // The power port (a micro-USB socket), where the power slot's cable plugs in.
  color("Silver") translate(concat(board_point(b, b[5]), [b[4] + 1.2])) rotate(board_turn(b))
    rotate(port_normal(b)) translate([-3, -4, 0]) cube([5, 8, 2.6]);
}

module button_model() {
  color("DeepPink") translate([button_at[0], button_at[1], height - button_depth_below]) {
    cylinder(d = button_thread_d, h = button_depth_below, $fn = 48);
    translate([0, 0, button_depth_below]) cylinder(d = button_thread_d + 6, h = 4, $fn = 48);
  }
}

module leds_model() {
  for (i = [0:3]) color(colours[i]) translate([led_at(i)[0], led_at(i)[1], height - shell_deck - 1]) {
    cylinder(d = leds_rim_d, h = 1, $fn = 24);
    cylinder(d = leds_body_d, h = 6, $fn = 24);
    translate([0, 0, 6]) sphere(d = leds_body_d, $fn = 24);
  }
}

// The dial painted: each quadrant in its light's colour (as a maker may paint it).
module dial_paint() {
  function arc(r, a0, a1) = [for (a = [a0:(a1 - a0) / 16:a1]) r * [cos(a), sin(a)]];
  for (i = [0:3]) {
    a = leds_first_angle - 90 * i;
    color(colours[i], 0.6) translate([button_at[0], button_at[1], height])
      linear_extrude(0.2) difference() {
        polygon(concat(arc(leds_dial_outer_r - 0.5, a - 43, a + 43),
                       arc(leds_dial_inner_r + 0.5, a + 43, a - 43)));
        translate(led_at(i) - button_at) circle(d = leds_hole_d, $fn = 32);
      }
  }
}

// The parts in the order they go together: base, board, lights (from below), shell, button
// (from above); `spread` pulls them apart for the exploded picture. (The shell is drawn first:
// OpenSCAD's preview hides the base through the wells when the base comes first.)
module assembly(name, spread = 0) {
  color("Ivory") translate([0, 0, spread * 2.2]) shell();
  translate([0, 0, spread * 2.2]) dial_paint();
  color("LightSteelBlue") base(name);
  translate([0, 0, spread * 0.2]) board_model(name);
  translate([0, 0, spread * 0.9]) leds_model();
  translate([0, 0, spread * 3.2]) button_model();
}

// ---- what to render -----------------------------------------------------------------------
check_board("pi_zero_2w");
check_board("pico");
if (part == "shell") rotate([180, 0, 0]) translate([0, 0, -height]) shell();  // deck down
else if (part == "base_pi_zero_2w") translate([0, 0, shell_base]) base("pi_zero_2w");
else if (part == "base_pico") translate([0, 0, shell_base]) base("pico");
else if (part == "inside") color("Ivory") rotate([180, 0, 0]) translate([0, 0, -height]) shell();
else if (part == "exploded") assembly(board_name, spread = 40);
else if (part == "bases") for (b = [["pi_zero_2w", 1], ["pico", -1]])
  translate([0, b[1] * (outer_y / 2 + 8), 0]) {
    color("LightSteelBlue") base(b[0]);
    board_model(b[0]);
  }
else assembly(board_name);
