/* A library consumer: schedule a 1 MiB broadcast on the built-in GUSTO platform with `auto`,
 * print what it chose against the problem's lower bound, and replay it on a network whose
 * transfers are 20 % off the model (seeded). Build: cc schedule.c $(pkg-config --cflags --libs
 * hetcoll), or the project's build (build/examples/example_schedule). */
#include <hetcoll/hetcoll.h>
#include <stdio.h>

int main(void)
{
    hc_platform_t *platform = NULL;
    hc_problem_t *problem = NULL;
    hc_schedule_t *s = NULL;
    hc_sim_result_t *r = NULL;
    hc_problem_spec_t spec;
    hc_sim_opts_t sim;
    int rc = hc_platform_load("builtin:gusto", &platform);
    if (rc == HC_OK) {
        hc_problem_spec_init(&spec, HC_COLL_BCAST);
        spec.platform = platform;
        spec.msg_bytes = 1 << 20;
        spec.root = 0;
        rc = hc_problem_create(&spec, &problem);
    }
    if (rc == HC_OK)
        rc = hc_schedule_compute(problem, "auto", NULL, &s);
    if (rc == HC_OK)
        rc = hc_schedule_validate(s, problem);
    if (rc == HC_OK) {
        hc_sim_opts_init(&sim);
        sim.error_sigma = 0.2;
        sim.seed = 7;
        rc = hc_simulate(s, problem, &sim, &r);
    }
    if (rc != HC_OK) {
        fprintf(stderr, "example_schedule: %s\n", hc_error_detail());
    } else {
        printf("bcast 1 MiB on gusto: %s, %.3f s planned (%.2fx the lower bound %.3f s), %.3f s "
               "on a perturbed network\n",
               s->algorithm, s->makespan, s->makespan / s->lower_bound, s->lower_bound,
               r->makespan);
    }
    hc_sim_result_destroy(r);
    hc_schedule_destroy(s);
    hc_problem_destroy(problem);
    hc_platform_destroy(platform);
    return rc == HC_OK ? 0 : 1;
}
