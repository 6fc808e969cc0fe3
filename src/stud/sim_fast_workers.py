"""What the fast simulation's worker server imports before it forks its workers: the compiled
kernels are loaded there, once, and every worker starts with them (``sim.Pool``)."""

from stud.sim_fast import warm

warm()
